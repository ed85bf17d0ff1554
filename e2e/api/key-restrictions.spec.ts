import type { APIRequestContext, APIResponse } from '@playwright/test';
import { bearer, expect, test, type Demo } from '../fixtures';
import { createKey, keyIdentities, listKeys } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { productionSilences, type Silence } from '../support/silences';

// Least privilege (PRODUCT.md "Least privilege for keys"): the owner's permissions now, intersected with the key's.
const keysPath = (orgId: string) => `/v1/organizations/${orgId}/api-keys`;
const subscriptions = (demo: Demo) => `/v1/organizations/${demo.acme}/projects/${demo.production}/subscriptions`;

async function refusal(res: APIResponse, status: number, code: string) {
  const body = await res.text();
  expect(res.status(), body).toBe(status);
  const { error } = JSON.parse(body) as { error: { code: string; message: string; issues?: { path: string }[] } };
  expect(error.code).toBe(code);
  return error;
}

const unique = (what: string) => `${what} ${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

test.describe('restricted keys', () => {
  test('a key gets what the restriction and the owner both allow; each side refuses with its own code', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const { apiKey, secret } = await createKey(bob, demo.acme, {
      name: unique('read silences'),
      expiresInDays: 1,
      permissions: ['obs.silences.list', 'obs.silences.get', 'obs.silences.list'],
      projectIds: [demo.production],
    });
    expect(apiKey).toMatchObject({
      permissions: ['obs.silences.list', 'obs.silences.get'],
      projectIds: [demo.production],
      allowedIps: null,
      policyViolations: [],
    });
    const key = await bearer(secret);
    const silences = (await (await key.get(productionSilences(demo))).json()) as { items: Silence[] };
    expect(silences.items.length).toBeGreaterThan(0);
    const silence = silences.items[0];
    const path = `${productionSilences(demo)}/${silence.id}`;
    expect((await key.get(path)).status()).toBe(200);

    // bob may update silences and list subscriptions in Production; this key may not.
    const denied = await refusal(
      await key.patch(path, { data: { comment: 'not through this key' }, headers: { 'If-Match': '"x"' } }),
      403,
      'key_scope_insufficient',
    );
    expect(denied.message).toContain('obs.silences.update');
    expect(((await (await bob.get(path)).json()) as Silence).version).toBe(silence.version);
    expect((await refusal(await key.get(subscriptions(demo)), 403, 'key_scope_insufficient')).message).toContain(
      'queues.subscriptions.list',
    );
    // Organization level is outside a project restriction, as it is outside a project binding.
    const projectOnly = await createKey(bob, demo.acme, {
      name: unique('project only'),
      expiresInDays: 1,
      permissions: ['projects.get'],
      projectIds: [demo.production],
    });
    const projectKey = await bearer(projectOnly.secret);
    const projects = await projectKey.get(`/v1/organizations/${demo.acme}/projects`);
    expect((await refusal(projects, 403, 'key_scope_insufficient')).message).toContain('organization level');
    await projectKey.dispose();
    // What bob himself lacks stays access_denied, whatever the key says.
    await refusal(await key.get(`/v1/organizations/${demo.acme}/members`), 403, 'access_denied');
    // Not in the key's projects: the permission is there, the project is not (Staging's alerting is off: 404 first).
    const staging = `/v1/organizations/${demo.acme}/projects/${demo.staging}/subscriptions`;
    const widened = await bob.patch(`${keysPath(demo.acme)}/${apiKey.id}`, {
      data: { permissions: ['obs.silences.list', 'obs.silences.get', 'queues.subscriptions.list'] },
    });
    expect(widened.status(), await widened.text()).toBe(200);
    expect((await key.get(subscriptions(demo))).status()).toBe(200);
    expect((await refusal(await key.get(staging), 403, 'key_scope_insufficient')).message).toContain(demo.staging);

    // The listing shows the restrictions; GET /v1/api-key shows what the key may do now.
    const listed = (await listKeys(bob, demo.acme)).find((k) => k.id === apiKey.id);
    expect(listed?.permissions).toEqual(['obs.silences.list', 'obs.silences.get', 'queues.subscriptions.list']);
    const self = await key.get('/v1/api-key');
    expect(self.status(), await self.text()).toBe(200);
    const current = (await self.json()) as {
      apiKey: { id: string };
      organizationId: string;
      effective: { permission: string; projectId: string | null }[];
      clientIp: string;
    };
    expect(current.apiKey.id).toBe(apiKey.id);
    expect(current.organizationId).toBe(demo.acme);
    expect(current.clientIp).toBe('127.0.0.1');
    expect(current.effective.sort((a, b) => a.permission.localeCompare(b.permission))).toEqual([
      { permission: 'obs.silences.get', projectId: demo.production },
      { permission: 'obs.silences.list', projectId: demo.production },
      { permission: 'queues.subscriptions.list', projectId: demo.production },
    ]);
    await refusal(await bob.get('/v1/api-key'), 403, 'access_denied');

    // Its page: what it would use of bob's permissions, which he all holds; a Full access key shows what bob holds.
    const access = await bob.get(`${keysPath(demo.acme)}/${apiKey.id}/access`);
    expect(access.status(), await access.text()).toBe(200);
    expect((await access.json()).permissions).toEqual(
      ['obs.silences.list', 'obs.silences.get', 'queues.subscriptions.list'].map((permission) => ({
        permission,
        projectId: demo.production,
        ownerHolds: true,
      })),
    );
    const full = await createKey(bob, demo.acme, { name: unique('full'), expiresInDays: 1 });
    const fullAccess = (await (await bob.get(`${keysPath(demo.acme)}/${full.apiKey.id}/access`)).json()) as {
      permissions: { permission: string; projectId: string | null; ownerHolds: boolean }[];
    };
    expect(fullAccess.permissions).toContainEqual({
      permission: 'obs.silences.list',
      projectId: null,
      ownerHolds: true,
    });
    expect(fullAccess.permissions).toContainEqual({
      permission: 'obs.silences.update',
      projectId: demo.production,
      ownerHolds: true,
    });
    expect(fullAccess.permissions.some((p) => p.permission === 'members.list')).toBe(false);
    await refusal(await (await as('cy')).get(`${keysPath(demo.acme)}/${apiKey.id}/access`), 403, 'access_denied');

    // Audit: created with the restrictions, updated with before and after.
    const events = await auditEventsAbout(await as('ada'), demo.acme, apiKey.id);
    expect(events.map((e) => e.action)).toEqual(['api_key.created', 'api_key.updated']);
    expect(events[0].changes).toEqual([
      { field: 'permissions', from: null, to: ['obs.silences.list', 'obs.silences.get'] },
      { field: 'projectIds', from: null, to: [demo.production] },
    ]);
    expect(events[1].changes).toEqual([
      {
        field: 'permissions',
        from: ['obs.silences.list', 'obs.silences.get'],
        to: ['obs.silences.list', 'obs.silences.get', 'queues.subscriptions.list'],
      },
    ]);
    await key.dispose();
  });

  test('nobody grants a key what they do not hold, and a refused create or change leaves every key as it was', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const before = await keyIdentities(bob, demo.acme);
    const attempt = async (extra: Record<string, unknown>, path: string) => {
      const error = await refusal(
        await bob.post(keysPath(demo.acme), { data: { name: unique('cap'), ...extra } }),
        400,
        'invalid_request',
      );
      expect(error.issues?.map((i) => i.path)).toEqual([path]);
    };
    await attempt({ permissions: ['obs.silences.list', 'members.list'] }, 'permissions.1');
    // Held only in Production: not in the whole organization, nor in Staging.
    await attempt({ permissions: ['obs.silences.update'] }, 'permissions.0');
    await attempt({ permissions: ['obs.silences.update'], projectIds: [demo.staging] }, 'permissions.0');
    await attempt({ permissions: ['no.such.permission'] }, 'permissions.0');
    await attempt({ projectIds: [demo.production, demo.globexProject] }, 'projectIds.1');
    await attempt({ allowedIps: [] }, 'allowedIps');
    await attempt({ allowedIps: ['127.0.0.1', '203.0.113.0/33'] }, 'allowedIps.1');
    await attempt({ permissions: [] }, 'permissions');
    expect(await keyIdentities(bob, demo.acme)).toEqual(before);

    // The same caps on a change, and only the owner (or bots.createApiKey for a bot's key) may change one.
    const { apiKey, secret } = await createKey(bob, demo.acme, {
      name: unique('narrow'),
      expiresInDays: 1,
      permissions: ['obs.silences.update'],
      projectIds: [demo.production],
    });
    const change = (ctx: APIRequestContext, data: Record<string, unknown>) =>
      ctx.patch(`${keysPath(demo.acme)}/${apiKey.id}`, { data });
    const error = await refusal(await change(bob, { projectIds: null }), 400, 'invalid_request');
    expect(error.issues?.map((i) => i.path)).toEqual(['permissions.0']);
    await refusal(await change(await as('cy'), { permissions: null }), 403, 'access_denied');
    await refusal(await change(await bearer(secret), { permissions: null }), 403, 'access_denied');
    await refusal(await change(await as('gil'), { permissions: null }), 404, 'not_found');
    const unchanged = (await listKeys(bob, demo.acme)).find((k) => k.id === apiKey.id);
    expect(unchanged).toMatchObject({ permissions: ['obs.silences.update'], projectIds: [demo.production] });
    expect((await auditEventsAbout(await as('ada'), demo.acme, apiKey.id)).map((e) => e.action)).toEqual([
      'api_key.created',
    ]);
    // null lifts a restriction: Full access again.
    const lifted = await change(bob, { permissions: null, projectIds: null });
    expect(lifted.status(), await lifted.text()).toBe(200);
    expect(await lifted.json()).toMatchObject({ permissions: null, projectIds: null });
  });

  test("a bot's key takes restrictions the same way, and a roll keeps them", async ({ as, demo }) => {
    const ada = await as('ada');
    const { apiKey, secret } = await createKey(ada, demo.acme, {
      name: unique('bot narrowed'),
      botId: demo.deployBot,
      expiresInDays: 10,
      permissions: ['queues.subscriptions.list'],
      projectIds: [demo.production],
      allowedIps: ['127.0.0.0/8', '::1'],
    });
    expect(apiKey.allowedIps).toEqual(['127.0.0.0/8', '::1/128']);
    const key = await bearer(secret);
    expect((await key.get(subscriptions(demo))).status()).toBe(200);
    await refusal(await key.get(productionSilences(demo)), 403, 'key_scope_insufficient');
    const rolled = await ada.post(`${keysPath(demo.acme)}/${apiKey.id}/roll`, { data: { gracePeriodSeconds: 0 } });
    expect(rolled.status(), await rolled.text()).toBe(201);
    const fresh = (await rolled.json()) as { apiKey: typeof apiKey; secret: string };
    expect(fresh.apiKey).toMatchObject({
      permissions: ['queues.subscriptions.list'],
      projectIds: [demo.production],
      allowedIps: ['127.0.0.0/8', '::1/128'],
    });
    const next = await bearer(fresh.secret);
    expect((await next.get(subscriptions(demo))).status()).toBe(200);
    await refusal(await next.get(productionSilences(demo)), 403, 'key_scope_insufficient');
    const [rolledEvent] = (await auditEventsAbout(ada, demo.acme, apiKey.id)).filter(
      (e) => e.action === 'api_key.rolled',
    );
    expect(rolledEvent.changes).toContainEqual({ field: 'permissions', from: null, to: ['queues.subscriptions.list'] });
    await Promise.all([key.dispose(), next.dispose()]);
  });
});

test.describe('allowedIps', () => {
  test('IPv4, IPv6, CIDR and mapped ranges against the connection address; refused before anything is read', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const statusFrom = async (allowedIps: string[]) => {
      const { secret } = await createKey(bob, demo.acme, { name: unique('ips'), expiresInDays: 1, allowedIps });
      const key = await bearer(secret);
      // Forwarded headers count for nothing without TRUST_PROXY.
      const res = await key.get(`/v1/organizations/${demo.acme}/projects`, {
        headers: { 'X-Forwarded-For': '10.1.2.3' },
      });
      const status = res.status() === 403 ? (await refusal(res, 403, 'ip_not_allowed')).message : res.status();
      await key.dispose();
      return status;
    };
    expect(await statusFrom(['127.0.0.1'])).toBe(200);
    expect(await statusFrom(['127.0.0.0/8'])).toBe(200);
    expect(await statusFrom(['::ffff:127.0.0.1'])).toBe(200);
    expect(await statusFrom(['::ffff:127.0.0.0/104'])).toBe(200);
    expect(await statusFrom(['2001:db8::/32', '10.0.0.0/8'])).toContain('127.0.0.1');
    expect(await statusFrom(['127.0.0.2/32', '::1'])).toContain('not allowed');

    // Before the 404 of an unknown organization and before a body is read.
    const { secret } = await createKey(bob, demo.acme, { name: unique('ips'), expiresInDays: 1, allowedIps: ['::1'] });
    const key = await bearer(secret);
    await refusal(
      await key.get('/v1/organizations/00000000-0000-4000-8000-000000000000/projects'),
      403,
      'ip_not_allowed',
    );
    await refusal(await key.get('/v1/api-key'), 403, 'ip_not_allowed');
    await key.dispose();
  });
});
