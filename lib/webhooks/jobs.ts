import type { BackgroundJob } from '../jobs/runner';
import { retrySchedule } from '../delivery/retry';
import { BATCH, deliverDue, releaseWebhookLeases } from './worker';

let schedule: ReturnType<typeof retrySchedule> | undefined;

/**
 * The delivery loop, in every instance: the claim keeps them from sending the same attempt. A full batch goes again
 * at once; otherwise it waits WEBHOOK_POLL_MS.
 */
export const webhookJobs: BackgroundJob[] = [
  {
    name: 'deliver-webhooks',
    everyMs: Number(process.env.WEBHOOK_POLL_MS ?? 1000),
    run: () => deliverDue((schedule ??= retrySchedule())),
    again: (claimed) => typeof claimed === 'number' && claimed >= BATCH,
    // A send still running at exit goes back to the queue, due at once for another instance.
    release: async () => void (await releaseWebhookLeases()),
  },
];
