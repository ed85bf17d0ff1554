import { Counter, Gauge, Histogram, register } from 'prom-client';

// Next may load this module more than once in a process; the default registry keeps one of each metric.
const existing = <M>(name: string) => register.getSingleMetric(name) as M | undefined;

export const queueDeliveries =
  existing<Counter<'outcome'>>('svc_queue_deliveries_total') ??
  new Counter({
    name: 'svc_queue_deliveries_total',
    help: 'Messages by what became of them at an attempt or expiry: delivered, failed (an attempt failed), dead_lettered, expired.',
    labelNames: ['outcome'],
  });

export const queueDeliveryDuration =
  existing<Histogram>('svc_queue_delivery_duration_seconds') ??
  new Histogram({
    name: 'svc_queue_delivery_duration_seconds',
    help: "Time from a batch's POST to its answer (or its timeout), per delivery.",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  });

export const queueBacklog =
  existing<Gauge<'state'>>('svc_queue_backlog_messages') ??
  new Gauge({
    name: 'svc_queue_backlog_messages',
    help: 'Undelivered messages summed over every subscription, by state (pending, in_flight, dead_lettered); read at each housekeeping pass.',
    labelNames: ['state'],
  });
