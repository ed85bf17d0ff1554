import { z } from 'zod';

/** One project's subscriptions at a glance: how many fail, and the dead letters they hold. */
export const projectSubscriptionHealth = z
  .object({
    projectId: z.uuid(),
    subscriptions: z.int().min(0),
    failing: z.int().min(0).meta({ description: 'Subscriptions whose `status.health` is `failing`.' }),
    deadLetters: z.int().min(0).meta({ description: 'Dead letters held by all its subscriptions.' }),
    deadLetterSubscription: z
      .object({ id: z.uuid(), slug: z.string() })
      .nullable()
      .meta({ description: 'The subscription holding the most dead letters, where they are listed; null for none.' }),
  })
  .meta({ id: 'ProjectSubscriptionHealth' });

export const subscriptionHealth = z
  .object({ items: z.array(projectSubscriptionHealth) })
  .meta({ id: 'SubscriptionHealth' });

export type ProjectSubscriptionHealth = z.infer<typeof projectSubscriptionHealth>;
export type SubscriptionHealth = z.infer<typeof subscriptionHealth>;
