import 'server-only';
import { GET as listQueues } from '@/app/v1/organizations/[orgId]/projects/[projectId]/queues/route';
import { GET as getQueue } from '@/app/v1/organizations/[orgId]/projects/[projectId]/queues/[queueId]/route';
import { GET as listSubscriptions } from '@/app/v1/organizations/[orgId]/projects/[projectId]/subscriptions/route';
import { GET as getSubscription } from '@/app/v1/organizations/[orgId]/projects/[projectId]/subscriptions/[subscriptionId]/route';
import { GET as getActivity } from '@/app/v1/organizations/[orgId]/projects/[projectId]/subscriptions/[subscriptionId]/activity/route';
import { GET as listDeliveries } from '@/app/v1/organizations/[orgId]/projects/[projectId]/subscriptions/[subscriptionId]/deliveries/route';
import { GET as listDeadLetters } from '@/app/v1/organizations/[orgId]/projects/[projectId]/subscriptions/[subscriptionId]/dead-letters/route';
import type { Page } from '@/lib/http/pagination';
import { queueKeys, queuesPath } from '@/lib/queues/keys';
import type { Subscription } from '@/lib/subscriptions/schema';
import {
  DEAD_LETTERS_PAGE_SIZE,
  DELIVERIES_PAGE_SIZE,
  EVERY_PAGE_SIZE,
  subscriptionKeys,
  subscriptionsPath,
} from '@/lib/subscriptions/keys';
import { serverRead, type Read } from '@/server/console/prefetch';

/*
 * The queue and subscription pages' first reads, each under the key its browser hook reads (lib/queues/queries.ts,
 * lib/subscriptions/queries.ts), through the same /v1 handlers the browser would ask.
 */

type Project = { orgId: string; projectId: string };

export const queuesRead = ({ orgId, projectId }: Project): Read => ({
  queryKey: queueKeys.list(orgId, projectId),
  handler: listQueues,
  path: queuesPath(orgId, projectId),
  params: { orgId, projectId },
  paged: true,
});

export const queueRead = ({ orgId, projectId }: Project, queueId: string): Read => ({
  queryKey: queueKeys.one(orgId, projectId, queueId),
  handler: getQueue,
  path: `${queuesPath(orgId, projectId)}/${queueId}`,
  params: { orgId, projectId, queueId },
});

export const everySubscriptionRead = ({ orgId, projectId }: Project): Read => ({
  queryKey: subscriptionKeys.every(orgId, projectId),
  handler: listSubscriptions,
  path: subscriptionsPath(orgId, projectId),
  params: { orgId, projectId },
  paged: true,
  pageSize: EVERY_PAGE_SIZE,
});

export const subscriptionRead = ({ orgId, projectId }: Project, subscriptionId: string): Read => ({
  queryKey: subscriptionKeys.one(orgId, projectId, subscriptionId),
  handler: getSubscription,
  path: `${subscriptionsPath(orgId, projectId)}/${subscriptionId}`,
  params: { orgId, projectId, subscriptionId },
});

export const activityRead = ({ orgId, projectId }: Project, subscriptionId: string): Read => ({
  queryKey: subscriptionKeys.activity(orgId, projectId, subscriptionId),
  handler: getActivity,
  path: `${subscriptionsPath(orgId, projectId)}/${subscriptionId}/activity`,
  params: { orgId, projectId, subscriptionId },
});

export const deliveriesRead = ({ orgId, projectId }: Project, subscriptionId: string): Read => ({
  queryKey: subscriptionKeys.deliveries(orgId, projectId, subscriptionId),
  handler: listDeliveries,
  path: `${subscriptionsPath(orgId, projectId)}/${subscriptionId}/deliveries`,
  params: { orgId, projectId, subscriptionId },
  paged: true,
  pageSize: DELIVERIES_PAGE_SIZE,
});

export const deadLettersRead = ({ orgId, projectId }: Project, subscriptionId: string): Read => ({
  queryKey: subscriptionKeys.deadLetters(orgId, projectId, subscriptionId),
  handler: listDeadLetters,
  path: `${subscriptionsPath(orgId, projectId)}/${subscriptionId}/dead-letters`,
  params: { orgId, projectId, subscriptionId },
  paged: true,
  pageSize: DEAD_LETTERS_PAGE_SIZE,
});

/**
 * The project's subscriptions (the first page of 100, nearly always all) and a read of the backlog of each one that
 * `wanted` keeps: the queue pages' figures come with the page. The subscriptions read is made once per request, so
 * the caller may list it again among its reads.
 */
export async function subscriptionsWithBacklogs(
  project: Project,
  wanted: (sub: Subscription) => boolean,
): Promise<Read[]> {
  const subs = await serverRead<Page<Subscription>>(everySubscriptionRead(project));
  return [
    everySubscriptionRead(project),
    ...(subs?.items ?? []).filter(wanted).map((s) => activityRead(project, s.id)),
  ];
}
