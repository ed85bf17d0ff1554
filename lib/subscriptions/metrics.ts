import { counter, gauge, histogram } from '../observability/metrics';

export const queueDeliveries = counter(
  'svc_queue_deliveries_total',
  'Messages by what became of them at an attempt or expiry: delivered, failed (an attempt failed), dead_lettered, expired.',
  ['outcome'],
);

export const queueDeliveryDuration = histogram(
  'svc_queue_delivery_duration_seconds',
  "Time from a batch's POST to its answer (or its timeout), per delivery.",
  [],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
);

export const queueBacklog = gauge(
  'svc_queue_backlog_messages',
  'Undelivered messages summed over every subscription, by state (pending, in_flight, dead_lettered); read at each housekeeping pass.',
  ['state'],
);
