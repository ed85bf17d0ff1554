import { alertJobs } from '../lib/alerts/jobs';
import { apiKeyJobs } from '../lib/api-keys/jobs';
import { auditJobs } from '../lib/audit/jobs';
import { authJobs } from '../lib/auth/jobs';
import { requestRecordJobs } from '../lib/http/jobs';
import type { BackgroundJob } from '../lib/jobs/runner';
import { notificationJobs } from '../lib/notifications/jobs';
import { secondFactorJobs } from '../lib/second-factor/jobs';
import { subscriptionJobs } from '../lib/subscriptions/jobs';
import { webhookJobs } from '../lib/webhooks/jobs';

/** Every background job of the app, each exported by the floor or feature it belongs to; start-up runs them. */
export const BACKGROUND_JOBS: readonly BackgroundJob[] = [
  ...requestRecordJobs,
  ...authJobs,
  ...auditJobs,
  ...apiKeyJobs,
  ...secondFactorJobs,
  ...notificationJobs,
  ...webhookJobs,
  ...subscriptionJobs,
  ...alertJobs,
];
