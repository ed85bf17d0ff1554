import { describe, expect, it } from 'vitest';
import * as t from '../db/schema';
import { insertTestSubscription, newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { subscriptionHealthByProject } from './health-service';

withEmptyEmbeddedDatabase('subscription-health');

describe("an organization's subscription health", () => {
  it('counts failing subscriptions and dead letters per project, and names where most dead letters are', async () => {
    const { db, scope } = await newTestProject('Health');
    const other = await newTestProject('Elsewhere');
    expect(await subscriptionHealthByProject(scope.organizationId)).toEqual([]);

    const healthy = await insertTestSubscription(scope);
    const failing = await insertTestSubscription(scope, { health: 'failing' });
    const most = await insertTestSubscription(scope, { health: 'failing' });
    // Another organization's subscription and dead letters count only there.
    const theirs = await insertTestSubscription(other.scope, { health: 'failing' });
    await db.insert(t.subscriptionBacklogs).values([
      { subscriptionId: healthy.id, pending: 4, dead: 2 },
      { subscriptionId: failing.id, pending: 0, dead: 0 },
      { subscriptionId: most.id, pending: 1, dead: 5 },
      { subscriptionId: theirs.id, pending: 0, dead: 9 },
    ]);

    expect(await subscriptionHealthByProject(scope.organizationId)).toEqual([
      {
        projectId: scope.projectId,
        subscriptions: 3,
        failing: 2,
        deadLetters: 7,
        deadLetterSubscription: { id: most.id, slug: most.slug },
      },
    ]);
    expect(await subscriptionHealthByProject(other.scope.organizationId)).toEqual([
      {
        projectId: other.scope.projectId,
        subscriptions: 1,
        failing: 1,
        deadLetters: 9,
        deadLetterSubscription: { id: theirs.id, slug: theirs.slug },
      },
    ]);
  });

  it('says no dead letters where there are none, backlog row or not', async () => {
    const { scope } = await newTestProject('Quiet');
    await insertTestSubscription(scope);
    expect(await subscriptionHealthByProject(scope.organizationId)).toEqual([
      { projectId: scope.projectId, subscriptions: 1, failing: 0, deadLetters: 0, deadLetterSubscription: null },
    ]);
  });
});
