import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { SYSTEM_ACTOR } from '../audit/source';
import { createOrganizationWithAdmin, joinOrganization } from './join-service';

// Every door that lets a user in (invitation, single sign-on, user:create, SCIM, setup, POST /v1/organizations)
// goes through these two functions: what they write is what each door writes.
withEmptyEmbeddedDatabase('join');

const source = { actor: SYSTEM_ACTOR, context: { requestId: null, ip: null, userAgent: null } };

async function newUser(email: string) {
  const db = await getDb();
  const [user] = await db
    .insert(t.users)
    .values({ email, name: email.split('@')[0] })
    .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
  return user;
}

async function writtenFor(organizationId: string, userId: string) {
  const db = await getDb();
  const memberships = await db
    .select({ userId: t.memberships.userId })
    .from(t.memberships)
    .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, userId)));
  const bindings = await db
    .select({ policy: t.policyBindings.policy, projectId: t.policyBindings.projectId })
    .from(t.policyBindings)
    .where(and(eq(t.policyBindings.organizationId, organizationId), eq(t.policyBindings.principalId, userId)));
  const events = await db
    .select({ action: t.auditEvents.action, target: t.auditEvents.target, reason: t.auditEvents.reason })
    .from(t.auditEvents)
    .where(eq(t.auditEvents.organizationId, organizationId));
  return { memberships: memberships.length, bindings, events };
}

describe('createOrganizationWithAdmin and joinOrganization', () => {
  it('make the organization with its admin, then a member joins with its policies and member.joined', async () => {
    const db = await getDb();
    const [ada, bea] = [await newUser('ada@example.test'), await newUser('bea@example.test')];
    const org = await db.transaction((tx) =>
      createOrganizationWithAdmin(tx, { name: 'Example', admin: ada, source, reason: 'setup' }),
    );
    const founded = await writtenFor(org.id, ada.id);
    expect(founded.memberships).toBe(1);
    expect(founded.bindings).toEqual([{ policy: 'OrganizationAdmin', projectId: null }]);
    expect(founded.events).toEqual([
      {
        action: 'organization.created',
        target: { type: 'organization', id: org.id, name: 'Example' },
        reason: 'setup',
      },
    ]);

    const [before] = await db.select({ epoch: t.authEpoch.epoch }).from(t.authEpoch);
    const policies = [{ policy: 'BasicAccess', projectId: null }];
    await db.transaction((tx) =>
      joinOrganization(tx, { organizationId: org.id, user: bea, policies, source, reason: 'scim' }),
    );
    const joined = await writtenFor(org.id, bea.id);
    expect(joined.memberships).toBe(1);
    expect(joined.bindings).toEqual(policies);
    expect(joined.events.at(-1)).toEqual({
      action: 'member.joined',
      target: { type: 'user', id: bea.id, name: 'bea <bea@example.test>' },
      reason: 'scim',
    });
    const [after] = await db.select({ epoch: t.authEpoch.epoch }).from(t.authEpoch);
    expect(Number(after.epoch)).toBeGreaterThan(Number(before.epoch));
  });

  it('leave nothing behind when the transaction around them fails', async () => {
    const db = await getDb();
    const cy = await newUser('cy@example.test');
    const [org] = await db.insert(t.organizations).values({ name: 'Rolled back' }).returning();
    const policies = [{ policy: 'BasicAccess', projectId: null }];
    await expect(
      db.transaction(async (tx) => {
        await joinOrganization(tx, { organizationId: org.id, user: cy, policies, source, reason: null });
        throw new Error('the door refused after the join');
      }),
    ).rejects.toThrow('the door refused');
    expect(await writtenFor(org.id, cy.id)).toEqual({ memberships: 0, bindings: [], events: [] });
  });
});
