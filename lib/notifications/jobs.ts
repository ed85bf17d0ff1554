import type { BackgroundJob } from '../jobs/runner';
import { emailDeliveryLoop } from './mailer';
import { sendExpiryReminders } from './reminder-service';
import { settings } from '../settings/settings';

// Expiry reminders (7 days and 1 day before) need no finer clock than this; tests shorten it.
const REMINDERS_EVERY_MS = settings().KEY_REMINDERS_EVERY_MS;

export const notificationJobs: BackgroundJob[] = [
  { name: 'expiry-reminders', everyMs: REMINDERS_EVERY_MS, run: () => sendExpiryReminders() },
  // Pending emails go from this process when SMTP_URL is set; without it notifications stay in the console.
  { ...emailDeliveryLoop.job, enabled: () => Boolean(settings().SMTP_URL) },
];
