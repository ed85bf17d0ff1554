import { Counter, register } from 'prom-client';

// Next may load this module more than once in a process; the default registry keeps one of each metric.
export const messagesPublished =
  (register.getSingleMetric('svc_queue_messages_published_total') as Counter | undefined) ??
  new Counter({
    name: 'svc_queue_messages_published_total',
    help: 'Messages stored by publishes (a request of 10 counts 10), over every queue; a refused publish counts none.',
  });
