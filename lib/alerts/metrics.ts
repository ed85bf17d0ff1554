import { counter, gauge, histogram } from '../observability/metrics';

export const alertsReceived = counter(
  'svc_alerts_received_total',
  'Alerts posted to a project and stored (new, updated or resolved), over every project.',
);

export const alertsRefused = counter(
  'svc_alerts_refused_total',
  'Alerts posted and not stored, by reason: invalid (a bad label, endsAt before startsAt, no label), too_big, too_many.',
  ['reason'],
);

export const alertNotifications = counter(
  'svc_alert_notifications_total',
  'Alert transitions sent to the outbox, by type (alert.firing, alert.resolved); one per transition, whatever the number of endpoints.',
  ['type'],
);

export const alertsNow = gauge(
  'svc_alerts',
  'Unresolved alerts over every project, by state: firing (muted by no active silence) or silenced; as of the last pass of the 10 s alerts-follow-the-clock job.',
  ['state'],
);

export const mutingLinks = counter(
  'svc_alert_silence_links_total',
  'Links between alerts and the silences that match them (alert_silences), by change: added, dropped. A resend of unchanged alerts changes none.',
  ['change'],
);

export const mutingSeconds = histogram(
  'svc_alert_muting_seconds',
  "Time spent keeping muting and notifications up to date, by work: alerts (a posted batch's links and transitions), silence (a silence's), clock (a pass of alerts-follow-the-clock over every project). Inside the project's muting lock, but for clock's first read.",
  ['work'],
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
);
