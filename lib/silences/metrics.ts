import { Counter, register } from 'prom-client';

// Next may load this module more than once in a process; the default registry keeps one of each metric.
export const alertNotifications =
  (register.getSingleMetric('svc_alert_notifications_total') as Counter<'type'> | undefined) ??
  new Counter({
    name: 'svc_alert_notifications_total',
    help: 'Alert transitions sent to the outbox, by type (alert.firing, alert.resolved); one per transition, whatever the number of endpoints.',
    labelNames: ['type'] as const,
  });
