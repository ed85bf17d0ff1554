import type { BackgroundJob } from '../jobs/runner';
import { BATCH, releaseEmailLeases, sendPendingEmails } from './mailer';
import { sendExpiryReminders } from './reminder-service';

// Expiry reminders (7 days and 1 day before) need no finer clock than this; tests shorten it.
const REMINDERS_EVERY_MS = Number(process.env.KEY_REMINDERS_EVERY_MS ?? 60_000);
const POLL_MS = Number(process.env.WEBHOOK_POLL_MS ?? 1000);

export const notificationJobs: BackgroundJob[] = [
  { name: 'expiry-reminders', everyMs: REMINDERS_EVERY_MS, run: () => sendExpiryReminders() },
  {
    // Pending emails go from this process when SMTP_URL is set; without it notifications stay in the console.
    name: 'send-emails',
    everyMs: POLL_MS,
    run: () => sendPendingEmails(),
    again: (sent) => typeof sent === 'number' && sent >= BATCH,
    enabled: () => Boolean(process.env.SMTP_URL),
    release: async () => void (await releaseEmailLeases()),
  },
];
