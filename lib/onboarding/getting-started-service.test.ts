import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as t from '../db/schema';
import { insertTestSubscription, newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { recordPost } from '../alerts/posts-service';
import { gettingStarted } from './getting-started-service';

withEmptyEmbeddedDatabase('getting-started');

const NOW = new Date('2030-06-01T12:00:00.000Z');

describe("an organization's first steps", () => {
  it('follow what it holds: alerting, a colleague, a post received, a subscription', async () => {
    const { db, scope } = await newTestProject('Start');
    const { organizationId, projectId } = scope;
    await db.update(t.projects).set({ alertingEnabled: false }).where(eq(t.projects.id, projectId));
    const [admin, colleague] = await db
      .insert(t.users)
      .values([
        { email: `admin-${Math.random()}@start.test`, name: 'Admin' },
        { email: `colleague-${Math.random()}@start.test`, name: 'Colleague' },
      ])
      .returning();
    await db.insert(t.memberships).values({ organizationId, userId: admin.id });
    expect(await gettingStarted(organizationId, NOW)).toEqual({
      alerting: { done: false, projectId },
      colleague: { done: false, projectId: null },
      sender: { done: false, projectId: null },
      queue: { done: false, projectId },
    });

    // A second project with alerting on is where alerts are sent from next; an expired invitation is no colleague.
    const [alerting] = await db
      .insert(t.projects)
      .values({ organizationId, name: 'Alerting', alertingEnabled: true })
      .returning();
    const invitation = {
      organizationId,
      email: 'new@start.test',
      policies: [],
      invitedBy: admin.id,
      tokenHash: `hash-${Math.random()}`,
    };
    await db.insert(t.invitations).values({ ...invitation, expiresAt: new Date(NOW.getTime() - 1) });
    expect(await gettingStarted(organizationId, NOW)).toMatchObject({
      alerting: { done: true, projectId: alerting.id },
      colleague: { done: false },
      sender: { done: false, projectId: alerting.id },
    });

    await db
      .insert(t.invitations)
      .values({ ...invitation, tokenHash: `hash-${Math.random()}`, expiresAt: new Date(NOW.getTime() + 60_000) });
    expect((await gettingStarted(organizationId, NOW)).colleague.done).toBe(true);
    await db.delete(t.invitations).where(eq(t.invitations.organizationId, organizationId));
    await db.insert(t.memberships).values({ organizationId, userId: colleague.id });
    expect((await gettingStarted(organizationId, NOW)).colleague.done).toBe(true);

    // The post and the subscription name the project they happened in.
    await recordPost(scope, NOW);
    await insertTestSubscription(scope);
    expect(await gettingStarted(organizationId, NOW)).toEqual({
      alerting: { done: true, projectId: alerting.id },
      colleague: { done: true, projectId: null },
      sender: { done: true, projectId },
      queue: { done: true, projectId },
    });
  });
});
