import { Counter, Gauge, register } from 'prom-client';

// Next may load this module more than once in a process; the default registry keeps one of each metric.
export const alertNotifications =
  (register.getSingleMetric('svc_alert_notifications_total') as Counter<'type'> | undefined) ??
  new Counter({
    name: 'svc_alert_notifications_total',
    help: 'Alert transitions sent to the outbox, by type (alert.firing, alert.resolved); one per transition, whatever the number of endpoints.',
    labelNames: ['type'] as const,
  });

export const alertsNow =
  (register.getSingleMetric('svc_alerts') as Gauge<'state'> | undefined) ??
  new Gauge({
    name: 'svc_alerts',
    help: 'Unresolved alerts over every project, by state: firing (muted by no active silence) or silenced; as of the last pass of the 10 s alerts-follow-the-clock job.',
    labelNames: ['state'] as const,
  });
