/** What a subscription's sealed signing secret is bound to: a box moved to another row does not open. */
export const subscriptionSecretContext = (subscriptionId: string) => `subscription:${subscriptionId}`;
