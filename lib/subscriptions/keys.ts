// Shared by the console's hooks (lib/subscriptions/queries.ts) and the server's first render (server/console/prefetch.ts),
// which cannot import values from a 'use client' module.

/** Query keys of the subscriptions area; never inline string keys. */
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  /** The organization's failing subscriptions and dead letters, per project (the overview). */
  health: (orgId: string) => [...subscriptionKeys.all, orgId, 'health'] as const,
  list: (orgId: string, projectId: string) => [...subscriptionKeys.all, orgId, projectId, 'list'] as const,
  /** Every subscription of the project, in pages of `EVERY_PAGE_SIZE`: the queue pages group them by queue. */
  every: (orgId: string, projectId: string) => [...subscriptionKeys.all, orgId, projectId, 'every'] as const,
  one: (orgId: string, projectId: string, id: string) =>
    [...subscriptionKeys.all, orgId, projectId, 'one', id] as const,
  activity: (orgId: string, projectId: string, id: string) =>
    [...subscriptionKeys.all, orgId, projectId, 'activity', id] as const,
  deliveries: (orgId: string, projectId: string, id: string) =>
    [...subscriptionKeys.all, orgId, projectId, 'deliveries', id] as const,
  deadLetters: (orgId: string, projectId: string, id: string) =>
    [...subscriptionKeys.all, orgId, projectId, 'dead-letters', id] as const,
};

/** The API's largest page: a queue has at most 10 subscriptions, so one page is most projects' every one. */
export const EVERY_PAGE_SIZE = 100;

/** A page of recent deliveries, and of dead letters: what a glance takes in, more behind Load more. */
export const DELIVERIES_PAGE_SIZE = 10;
export const DEAD_LETTERS_PAGE_SIZE = 20;

/** How often a subscription's figures, deliveries and dead letters are read again while its page is visible. */
export const ACTIVITY_REFRESH_MS = 5_000;

export const subscriptionsPath = (orgId: string, projectId: string) =>
  `/v1/organizations/${orgId}/projects/${projectId}/subscriptions`;
