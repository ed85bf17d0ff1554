/** Which subscription a part of its page shows: the route's own parameters. */
export type SubscriptionAddress = { orgId: string; projectId: string; subscriptionId: string };
