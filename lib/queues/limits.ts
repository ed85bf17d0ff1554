import { positiveInteger } from '../settings';

/** Queues a project holds at most unless QUEUES_MAX_PER_PROJECT says otherwise. */
export const DEFAULT_MAX_QUEUES = 100;
/** Undelivered messages a subscription holds at most unless QUEUE_MAX_BACKLOG says otherwise. */
export const DEFAULT_MAX_BACKLOG = 1_000_000;

export const maxQueuesPerProject = (value = process.env.QUEUES_MAX_PER_PROJECT) =>
  positiveInteger(value, DEFAULT_MAX_QUEUES);

export const maxBacklog = (value = process.env.QUEUE_MAX_BACKLOG) => positiveInteger(value, DEFAULT_MAX_BACKLOG);
