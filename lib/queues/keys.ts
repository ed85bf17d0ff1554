// Shared by the console's hooks (lib/queues/queries.ts) and the server's first render of the queue pages, which
// cannot import values from a 'use client' module.

/** Query keys of the queues area; never inline string keys. */
export const queueKeys = {
  all: ['queues'] as const,
  project: (orgId: string, projectId: string) => [...queueKeys.all, orgId, projectId] as const,
  list: (orgId: string, projectId: string) => [...queueKeys.project(orgId, projectId), 'list'] as const,
  one: (orgId: string, projectId: string, queueId: string) =>
    [...queueKeys.project(orgId, projectId), 'one', queueId] as const,
};

export const queuesPath = (orgId: string, projectId: string) =>
  `/v1/organizations/${orgId}/projects/${projectId}/queues`;
