import type { BackgroundJob } from '../jobs/runner';
import { webhookDeliveryLoop } from './worker';

/** Webhook events go out through the delivery engine's loop; a send still running at exit goes back to the queue. */
export const webhookJobs: BackgroundJob[] = [webhookDeliveryLoop.job];
