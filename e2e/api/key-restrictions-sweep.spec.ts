import { randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { alertmanagerOperations } from '../../lib/alertmanager/operations';
import type { EffectivePermissions } from '../../lib/access/schema';
import type { Operation } from '../../lib/pipeline/operation';
import { allOperations } from '../../server/operations';
import { bearer, expect, expectError, sessionFor, test, type Demo } from '../fixtures';
import { createKey, keyIdentities, listKeys, userIdOf } from '../support/api-keys';
import { eventsAfter, newestSeq } from '../support/audit';
import { demoSilence } from '../support/silences';
import { queueNamed } from '../support/queues';
import { loadDemoSubs } from '../support/subscriptions';

// Restricted means restricted (PRODUCT.md, "Restricted keys and the owner's own doors"): every operation of both API
// families, taken from the registry, called with a key narrowed to one permission in one project. A new operation
// is swept without anyone writing a test for it.
const OWNER = 'kai@acme.test';
const NAMED = 'obs.silences.get';
const SELF_REFUSAL = /acts on its owner’s own account/;

/** The doors every key keeps, written here rather than read from the operations: a door declared by mistake fails. */
const DOORS = ['GET /v1/api-key', 'GET /v1/organizations', 'GET /v1/organizations/{orgId}/permissions'];

const keysPath = (orgId: string) => `/v1/organizations/${orgId}/api-keys`;
const unique = (what: string) => `${what} ${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
const nameOf = (op: Operation) => `${op.method} ${op.path}`;
const takesKeys = (op: Operation) => Array.isArray(op.credentials) && op.credentials.includes('api_key');

/** Whether the owner holds what the operation needs at its scope, so that only the key's narrowing refuses it. */
function ownerHolds(op: Operation, held: EffectivePermissions, projectId: string): boolean {
  if (op.self) return true;
  const at =
    op.scope === 'project'
      ? (held.projects.find((p) => p.projectId === projectId)?.permissions ?? [])
      : held.organization;
  return [op.permission, ...(op.anyPermission ?? [])].some((p) => p !== undefined && at.includes(p));
}

type Sweep = { key: APIRequestContext; keyId: string; other: { id: string; secret: string } };

async function narrowedKey(kai: APIRequestContext, demo: Demo, body: Record<string, unknown>) {
  const { apiKey, secret } = await createKey(kai, demo.acme, { name: unique('narrowed'), expiresInDays: 1, ...body });
  return { id: apiKey.id, secret, key: await bearer(secret) };
}

test.describe('restricted keys at the owner’s own doors', () => {
  let kai: APIRequestContext;
  let ada: APIRequestContext;
  let sweep: Sweep;

  test.beforeAll(async () => {
    kai = await sessionFor(OWNER);
    ada = await sessionFor('ada');
  });
  test.afterAll(async () => {
    await sweep?.key.dispose();
    await kai.dispose();
    await ada.dispose();
  });

  test('the sweep: every operation of both families refuses a narrowed key, but what it names and the doors', async ({
    demo,
  }) => {
    test.slow();
    const narrowed = await narrowedKey(kai, demo, { permissions: [NAMED], projectIds: [demo.production] });
    const other = await createKey(kai, demo.acme, { name: unique('other'), expiresInDays: 1 });
    sweep = { key: narrowed.key, keyId: narrowed.id, other: { id: other.apiKey.id, secret: other.secret } };
    const held = (await (await kai.get(`/v1/organizations/${demo.acme}/permissions`)).json()) as EffectivePermissions;
    const silence = await demoSilence(kai, demo, 'active');
    const samples: Record<string, string> = {
      orgId: demo.acme,
      projectId: demo.production,
      silenceId: silence.id,
      silenceID: silence.id,
      subscriptionId: (await loadDemoSubs(demo)).https.id,
      queueId: (await queueNamed(kai, demo.acme, demo.production, 'orders')).id,
      keyId: other.apiKey.id,
      userId: await userIdOf(ada, demo.acme, OWNER),
      botId: demo.deployBot,
      webhookId: randomUUID(),
      deliveryId: randomUUID(),
      messageId: randomUUID(),
      verificationId: randomUUID(),
      passkeyId: randomUUID(),
      userCode: 'WDJB-MJHT',
      invitationId: randomUUID(),
      fingerprint: '0123456789abcdef',
    };
    const before = {
      keys: await keyIdentities(kai, demo.acme),
      members: await memberIds(ada, demo.acme),
      bots: await botIds(ada, demo.acme),
    };

    const operations = [
      ...allOperations.map((op) => ({ op, family: 'v1' as const })),
      ...alertmanagerOperations.map((op) => ({ op, family: 'alertmanager' as const })),
    ].filter(({ op }) => op.credentials !== 'public' && op.credentials !== 'signed');
    expect(operations.length).toBeGreaterThan(60);
    let reached = 0;
    for (const { op, family } of operations) {
      const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (!(name in samples)) throw new Error(`${nameOf(op)}: the sweep has no sample for {${name}}; add one`);
        return samples[name];
      });
      const seq = await newestSeq(ada, demo.acme);
      const sendsBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
      const res = await narrowed.key.fetch(url, { method: op.method, data: sendsBody ? {} : undefined });
      const allowed = DOORS.includes(nameOf(op)) || (op.permission === NAMED && op.scope === 'project');
      await test.step(`${nameOf(op)} → ${res.status()}`, async () => {
        if (allowed) {
          expect(res.status(), `${nameOf(op)}: ${await res.text()}`).toBe(200);
          reached++;
        } else if (family === 'alertmanager') {
          expect(res.status(), `${nameOf(op)}: ${await res.text()}`).toBe(403);
          expect(typeof (await res.json())).toBe('string');
        } else {
          const code = !takesKeys(op)
            ? 'access_denied'
            : ownerHolds(op, held, demo.production)
              ? 'key_scope_insufficient'
              : 'access_denied';
          const error = await expectError(res, 403, code);
          if (op.self && takesKeys(op)) expect(error.message).toMatch(SELF_REFUSAL);
        }
        // Every change writes its audit event in its own transaction: none may follow a refusal.
        expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
      });
    }
    // The silence read in each family, and the three doors.
    expect(reached).toBe(5);

    expect(await keyIdentities(kai, demo.acme)).toEqual(before.keys);
    expect(await memberIds(ada, demo.acme)).toEqual(before.members);
    expect(await botIds(ada, demo.acme)).toEqual(before.bots);
    const otherKey = await bearer(other.secret);
    expect((await otherKey.get('/v1/api-key')).status()).toBe(200);
    await otherKey.dispose();
  });

  test('a narrowed key cannot make its owner leave, nor list, read, or revoke the owner’s other keys', async ({
    demo,
  }) => {
    const narrowed = await narrowedKey(kai, demo, { permissions: [NAMED], projectIds: [demo.production] });
    const other = await createKey(kai, demo.acme, { name: unique('other'), expiresInDays: 1 });
    const keys = await keyIdentities(kai, demo.acme);
    const seq = await newestSeq(ada, demo.acme);
    const refused = async (res: APIResponse) =>
      expect((await expectError(res, 403, 'key_scope_insufficient')).message).toMatch(SELF_REFUSAL);

    await refused(await narrowed.key.post(`/v1/organizations/${demo.acme}/members/me/leave`));
    await refused(await narrowed.key.get(keysPath(demo.acme)));
    await refused(await narrowed.key.get(`${keysPath(demo.acme)}?owner=me`));
    await refused(await narrowed.key.get(`${keysPath(demo.acme)}/${other.apiKey.id}/usage`));
    await refused(await narrowed.key.get(`${keysPath(demo.acme)}/${other.apiKey.id}/access`));
    await refused(await narrowed.key.delete(`${keysPath(demo.acme)}/${other.apiKey.id}`));
    await refused(await narrowed.key.get(`/v1/organizations/${demo.acme}/api-key-leaks`));
    // The bot list is no longer open to every key: it has a permission of its own, which this key does not name.
    await expectError(await narrowed.key.get(`/v1/organizations/${demo.acme}/bots`), 403, 'key_scope_insufficient');

    expect(await memberIds(ada, demo.acme)).toContain(await userIdOf(ada, demo.acme, OWNER));
    expect(await keyIdentities(kai, demo.acme)).toEqual(keys);
    expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
    await narrowed.key.dispose();
  });

  test('projects narrow as permissions do; addresses alone leave the owner’s doors open', async ({ demo }) => {
    const projectOnly = await narrowedKey(kai, demo, { projectIds: [demo.production] });
    await expectError(await projectOnly.key.get(keysPath(demo.acme)), 403, 'key_scope_insufficient');
    await expectError(
      await projectOnly.key.post(`/v1/organizations/${demo.acme}/members/me/leave`),
      403,
      'key_scope_insufficient',
    );
    const addressOnly = await narrowedKey(kai, demo, { allowedIps: ['127.0.0.0/8'] });
    const listed = await listKeys(addressOnly.key, demo.acme);
    expect(listed.map((k) => k.id)).toEqual(expect.arrayContaining([projectOnly.id, addressOnly.id]));
    expect((await addressOnly.key.get(`/v1/organizations/${demo.acme}/bots`)).status()).toBe(200);
    await projectOnly.key.dispose();
    await addressOnly.key.dispose();
  });

  test('a narrowed key that names apiKeys.list and apiKeys.delete reaches everyone’s keys through them', async ({
    demo,
  }) => {
    const keyAdmin = await narrowedKey(kai, demo, { permissions: ['apiKeys.list', 'apiKeys.delete'] });
    const bob = await sessionFor('bob');
    const bobs = await createKey(bob, demo.acme, { name: unique('bob, revoked by a key admin'), expiresInDays: 1 });
    const listed = await listKeys(keyAdmin.key, demo.acme);
    expect(listed.map((k) => k.id)).toContain(bobs.apiKey.id);
    expect((await keyAdmin.key.delete(`${keysPath(demo.acme)}/${bobs.apiKey.id}`)).status()).toBe(204);
    expect((await listKeys(bob, demo.acme)).map((k) => k.id)).not.toContain(bobs.apiKey.id);
    // Leaving is not a permission: no key list names it.
    await expectError(
      await keyAdmin.key.post(`/v1/organizations/${demo.acme}/members/me/leave`),
      403,
      'key_scope_insufficient',
    );
    await bob.dispose();
    await keyAdmin.key.dispose();
  });

  test('every key keeps four doors; revoking itself is 204, then the key is 401', async ({ demo }) => {
    const narrowed = await narrowedKey(kai, demo, { permissions: [NAMED], projectIds: [demo.production] });
    const whoAmI = (await (await narrowed.key.get('/v1/api-key')).json()) as { apiKey: { id: string } };
    expect(whoAmI.apiKey.id).toBe(narrowed.id);
    const orgs = (await (await narrowed.key.get('/v1/organizations')).json()) as { items: { id: string }[] };
    expect(orgs.items.map((o) => o.id)).toEqual([demo.acme]);
    const permissions = (await (
      await narrowed.key.get(`/v1/organizations/${demo.acme}/permissions`)
    ).json()) as EffectivePermissions;
    // What the key may do: the owner's permissions, intersected with the key's.
    expect(permissions.organization).toEqual([]);
    for (const project of permissions.projects)
      expect(project.permissions).toEqual(project.projectId === demo.production ? [NAMED] : []);

    const seq = await newestSeq(ada, demo.acme);
    expect((await narrowed.key.delete(`${keysPath(demo.acme)}/${narrowed.id}`)).status()).toBe(204);
    await expectError(await narrowed.key.get('/v1/api-key'), 401, 'unauthenticated');
    const events = await eventsAfter(ada, demo.acme, seq);
    expect(events.map((e) => [e.action, e.target.id, e.actor.via])).toEqual([
      ['api_key.revoked', narrowed.id, 'api_key'],
    ]);
    await narrowed.key.dispose();
  });
});

async function memberIds(admin: APIRequestContext, orgId: string): Promise<string[]> {
  const res = await admin.get(`/v1/organizations/${orgId}/members?limit=100`);
  return ((await res.json()) as { items: { userId: string }[] }).items.map((m) => m.userId).sort();
}

async function botIds(admin: APIRequestContext, orgId: string): Promise<string[]> {
  const res = await admin.get(`/v1/organizations/${orgId}/bots?limit=100`);
  return ((await res.json()) as { items: { id: string }[] }).items.map((b) => b.id).sort();
}
