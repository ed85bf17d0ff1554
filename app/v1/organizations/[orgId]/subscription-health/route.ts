import { subscriptionHealthOp } from '@/lib/subscriptions/operations';
import { subscriptionHealthByProject } from '@/lib/subscriptions/health-service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

// One statement for the organization; then only the projects whose subscriptions the caller may list.
export const GET = route(subscriptionHealthOp, async ({ params, can }) => {
  const all = await subscriptionHealthByProject(params.orgId);
  const seen = await Promise.all(all.map((p) => can('queues.subscriptions.list', { projectId: p.projectId })));
  return json({ items: all.filter((_, i) => seen[i]) });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(subscriptionHealthOp);
