import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { withDemoEmbeddedDatabase } from '../../server/testing/test-database';
import { ApiError } from '../errors';
import type { Principal } from '../auth/principal';
import { grantablePolicies } from '../access/grantable';
import { joinInvitedBySso } from './sso-join-service';
import { newLinkToken } from './tokens';

// The grant rule and the single sign-on join against the real schema and the demo data, on an embedded database.
const ids = withDemoEmbeddedDatabase('onboarding');

const bob = (): Principal => ({ type: 'user', id: ids['bob@acme.test'], name: 'Bob', via: 'session' });

async function issuesOf(run: Promise<unknown>): Promise<string[]> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return ((err as ApiError).issues ?? []).map((i) => i.path);
}

describe('grantablePolicies: only what the granter holds, at that scope', () => {
  it('bob may give QueuesEditor in Production, where he holds it, but not in the organization or Staging', async () => {
    const db = await getDb();
    const given = [{ policy: 'QueuesEditor', projectId: ids.Production }];
    expect(await grantablePolicies(db, ids.Acme, bob(), [...given, ...given])).toEqual(given);
    const refused = [
      { policy: 'QueuesEditor', projectId: null },
      { policy: 'QueuesEditor', projectId: ids.Staging },
      { policy: 'NoSuch', projectId: null },
      { policy: 'BasicAccess', projectId: ids.Platform },
    ];
    const paths = await issuesOf(grantablePolicies(db, ids.Acme, bob(), refused));
    expect(paths).toEqual(['policies.0.policy', 'policies.1.policy', 'policies.2.policy', 'policies.3.projectId']);
  });

  it('a binding the principal keeps is not given again; a key restricted to one permission gives nothing else', async () => {
    const db = await getDb();
    const admin = [{ policy: 'OrganizationAdmin', projectId: null }];
    expect(await grantablePolicies(db, ids.Acme, bob(), admin, admin)).toEqual(admin);
    const narrowed: Principal = {
      ...bob(),
      via: 'api_key',
      keyScope: { permissions: new Set(['apiKeys.create']), projectIds: null, allowedIps: null, policyViolations: [] },
    };
    const basic = [{ policy: 'BasicAccess', projectId: null }];
    expect(await issuesOf(grantablePolicies(db, ids.Acme, narrowed, basic))).toEqual(['policies.0.policy']);
  });
});

describe('joinInvitedBySso: an invited email signing in with OIDC for the first time', () => {
  it('is made a user and joins with the invitation’s policies; an email without one is refused', async () => {
    const db = await getDb();
    const email = 'sso-invitee@example.test';
    const policies = [{ policy: 'BasicAccess', projectId: null }];
    const [invitation] = await db
      .insert(t.invitations)
      .values({
        organizationId: ids.Acme,
        email,
        policies,
        invitedBy: ids['ada@acme.test'],
        tokenHash: newLinkToken().hash,
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    expect(await joinInvitedBySso('nobody-invited@example.test', 'Nobody')).toBe(false);
    expect(await db.select().from(t.users).where(eq(t.users.email, 'nobody-invited@example.test'))).toEqual([]);

    expect(await joinInvitedBySso('SSO-Invitee@example.test', 'Sso Invitee')).toBe(true);
    const [user] = await db.select().from(t.users).where(eq(t.users.email, email));
    expect(user).toMatchObject({ name: 'Sso Invitee', passwordHash: null, status: 'active' });
    const bindings = await db
      .select({ policy: t.policyBindings.policy })
      .from(t.policyBindings)
      .where(and(eq(t.policyBindings.organizationId, ids.Acme), eq(t.policyBindings.principalId, user.id)));
    expect(bindings).toEqual([{ policy: 'BasicAccess' }]);
    const [used] = await db.select().from(t.invitations).where(eq(t.invitations.id, invitation.id));
    expect(used.acceptedAt).not.toBeNull();
    const actions = await db
      .select({ action: t.auditEvents.action })
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.organizationId, ids.Acme), eq(t.auditEvents.reason, 'single_sign_on')));
    expect(actions).toEqual([{ action: 'member.joined' }]);
  });
});
