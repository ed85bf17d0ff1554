import { Counter, Gauge, register } from 'prom-client';

// Next may load this module more than once in a process; the default registry keeps one of each metric.
function counter(name: string, help: string): Counter {
  return (register.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help });
}

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
export const queueAge =
  (register.getSingleMetric('svc_webhook_queue_age_seconds') as Gauge | undefined) ??
  new Gauge({
    name: 'svc_webhook_queue_age_seconds',
    help: 'How long the oldest delivery this instance last claimed had been due (0 when none was due).',
  });
