import { counter, gauge } from '../observability/metrics';

export const deliveriesSent = counter(
  'svc_webhook_deliveries_sent_total',
  'Webhook attempts the receiver accepted (2xx).',
);
export const deliveriesFailed = counter(
  'svc_webhook_deliveries_failed_total',
  'Webhook attempts that failed (no answer or a non-2xx status), retried or not.',
);
export const deliveriesRetried = counter(
  'svc_webhook_deliveries_retried_total',
  'Failed webhook attempts for which a retry was scheduled.',
);
export const queueAge = gauge(
  'svc_webhook_queue_age_seconds',
  'How long the oldest delivery this instance last claimed had been due (0 when none was due).',
);
