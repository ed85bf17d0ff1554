import { Counter, Gauge, Histogram, register } from 'prom-client';

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

export const mutingLinks =
  (register.getSingleMetric('svc_alert_silence_links_total') as Counter<'change'> | undefined) ??
  new Counter({
    name: 'svc_alert_silence_links_total',
    help: 'Links between alerts and the silences that match them (alert_silences), by change: added, dropped. A resend of unchanged alerts changes none.',
    labelNames: ['change'] as const,
  });

export const mutingSeconds =
  (register.getSingleMetric('svc_alert_muting_seconds') as Histogram<'work'> | undefined) ??
  new Histogram({
    name: 'svc_alert_muting_seconds',
    help: "Time spent keeping muting and notifications up to date, by work: alerts (a posted batch's links and transitions), silence (a silence's), clock (a pass of alerts-follow-the-clock over every project). Inside the project's muting lock, but for clock's first read.",
    labelNames: ['work'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
