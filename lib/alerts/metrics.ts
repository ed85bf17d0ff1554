import { Counter, register } from 'prom-client';

// Next may load this module more than once in a process; the default registry keeps one of each metric.
export const alertsReceived =
  (register.getSingleMetric('svc_alerts_received_total') as Counter | undefined) ??
  new Counter({
    name: 'svc_alerts_received_total',
    help: 'Alerts posted to a project and stored (new, updated or resolved), over every project.',
  });

export const alertsRefused =
  (register.getSingleMetric('svc_alerts_refused_total') as Counter<'reason'> | undefined) ??
  new Counter({
    name: 'svc_alerts_refused_total',
    help: 'Alerts posted and not stored, by reason: invalid (a bad label, endsAt before startsAt, no label), too_big, too_many.',
    labelNames: ['reason'] as const,
  });
