import { counter } from '../observability/metrics';

export const messagesPublished = counter(
  'svc_queue_messages_published_total',
  'Messages stored by publishes (a request of 10 counts 10), over every queue; a refused publish counts none.',
);
