import { randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { expect, type Demo } from '../fixtures';
import { build, type Mutation, type ValidRequest } from './bad-input';
import { createKey, keyIdentities, listKeys } from './api-keys';
import { leak, serverScannerKey, signatureFor } from './secret-scanning';
import { demoSilence } from './silences';
import { loadDemoSubs, subPath } from './subscriptions';
import { onboardingTargets } from './bad-input-targets-onboarding';
import { queueTargets } from './bad-input-targets-queues';

/** One operation of the OpenAPI document with a request that would succeed, and what "unchanged" compares. */
/** The operations here whose request is a JSON body: each is fuzzed field by field and nested past the depth limit. */
export const JSON_BODY_TARGET_KEYS = [
  'POST /v1/organizations/{orgId}/api-keys',
  'POST /v1/organizations/{orgId}/api-keys/{keyId}/roll',
  'PATCH /v1/organizations/{orgId}/api-keys/{keyId}',
  'POST /v1/organizations/{orgId}/scim-tokens',
  'POST /v1/secret-scanning/reports',
  'POST /v1/organizations/{orgId}/projects/{projectId}/obs/silences',
  'POST /v1/organizations/{orgId}/projects/{projectId}/obs/silences/preview',
  'PATCH /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}',
  'POST /v1/organizations/{orgId}/projects/{projectId}/subscriptions',
  'POST /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters/redrive',
  'PATCH /v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
  'PATCH /v1/organizations/{orgId}',
  'POST /v1/organizations/{orgId}/webhooks',
  'PATCH /v1/organizations/{orgId}/webhooks/{webhookId}',
  'POST /v1/me/sudo',
  'POST /v1/me/totp/confirm',
  'POST /v1/me/notifications/read',
  'PATCH /v1/me/notification-preferences',
];

export type Target = {
  key: string;
  url: string;
  method: string;
  valid: ValidRequest;
  /** What must read the same before and after a refused request; absent for reads. */
  snapshot?: () => Promise<unknown>;
  /** Proves `valid` passes validation, without changing anything the snapshot compares. */
  check: () => Promise<void>;
  /** Headers computed from the raw body sent, mutated or not (a leak report's signature). */
  sign?: (body: Buffer) => Record<string, string>;
};

/** A resource without what time alone changes (a silence's state, a subscription's delivery status). */
function withoutVolatile(resource: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...resource };
  delete rest.status;
  delete rest.state;
  return rest;
}

/** The valid request of every operation that takes a body, query or declared header, as ada (OrganizationAdmin). */
export async function buildTargets(ada: APIRequestContext, demo: Demo): Promise<Target[]> {
  const org = `/v1/organizations/${demo.acme}`;
  adaContext = ada;
  const project = `${org}/projects/${demo.production}`;
  const sub = (await loadDemoSubs(demo)).https;
  const silence = await demoSilence(ada, demo, 'scheduled');
  const silenceUrl = `${project}/obs/silences/${silence.id}`;
  const read = async (url: string) => {
    const res = await ada.get(url);
    expect(res.status(), await res.text()).toBe(200);
    return withoutVolatile((await res.json()) as Record<string, unknown>);
  };
  const target = (t: Omit<Target, 'check'>, check: (res: APIResponse) => Promise<void>): Target => ({
    ...t,
    check: async () => check(await send(ada, t)),
  });
  // A target whose valid request would change what other files read (it would expire or edit the demo's scheduled
  // silence): its check proves the request's input valid another way, without sending it.
  const probed = (t: Omit<Target, 'check'>, check: () => Promise<void>): Target => ({ ...t, check });
  const rollable = await createKey(ada, demo.acme, { name: 'bad-input roll probe', expiresInDays: 30 });
  const restricted = await createKey(ada, demo.acme, { name: 'bad-input restrictions probe', expiresInDays: 30 });
  const hook = await disabledWebhook(ada, org);
  const hookUrl = `${org}/webhooks/${hook.id}`;
  const scanner = serverScannerKey();
  const list = (key: string, url: string, query: Record<string, string>) =>
    target({ key, url, method: 'GET', valid: { query } }, async (res) =>
      expect(res.status(), await res.text()).toBe(200),
    );

  const onboarding = await onboardingTargets(ada, demo, target);
  const queues = await queueTargets(ada, demo, target);
  return [
    ...onboarding,
    ...queues,
    list('GET /v1/organizations', '/v1/organizations', { limit: '10' }),
    list('GET /v1/organizations/{orgId}/projects', `${org}/projects`, { limit: '10' }),
    list('GET /v1/organizations/{orgId}/members', `${org}/members`, { limit: '10' }),
    list('GET /v1/organizations/{orgId}/bots', `${org}/bots`, { limit: '10' }),
    list('GET /v1/organizations/{orgId}/api-keys', `${org}/api-keys`, { limit: '10', owner: 'me' }),
    list('GET /v1/organizations/{orgId}/projects/{projectId}/subscriptions', `${project}/subscriptions`, {
      limit: '10',
    }),
    list(
      'GET /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters',
      `${subPath(sub)}/dead-letters`,
      { limit: '10' },
    ),
    list(
      'GET /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/deliveries',
      `${subPath(sub)}/deliveries`,
      { limit: '10' },
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/projects/{projectId}/subscriptions',
        url: `${project}/subscriptions`,
        method: 'POST',
        valid: {
          body: {
            queueId: sub.queueId,
            target: { kind: 'https', url: 'https://hooks.example.com/bad-input', timeoutSeconds: 5 },
            batchSize: 2,
            maxConcurrency: 3,
            state: 'paused',
            retryPolicy: { maxAttempts: 4, minBackoffSeconds: 1, maxBackoffSeconds: 60 },
          },
        },
        snapshot: async () =>
          ((await read(`${project}/subscriptions?limit=100`)).items as { id: string }[]).map((s) => s.id),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        const { id } = (await res.json()) as { id: string };
        expect((await ada.delete(`${project}/subscriptions/${id}`)).status()).toBe(204);
      },
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters/redrive',
        url: `${subPath(sub)}/dead-letters/redrive`,
        method: 'POST',
        // An id that names no dead letter: valid, and redrives nothing.
        valid: { body: { messageIds: [randomUUID()] } },
        // The backlog without the per-minute figures, whose times move on each minute.
        snapshot: async () => ({
          deadLetters: await read(`${subPath(sub)}/dead-letters?limit=100`),
          backlog: (await read(`${subPath(sub)}/activity`)).backlog,
        }),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(202);
        expect(await res.json()).toEqual({ redriven: 0 });
      },
    ),
    list('GET /v1/organizations/{orgId}/projects/{projectId}/obs/silences', `${project}/obs/silences`, {
      limit: '10',
      state: 'active',
    }),
    list('GET /v1/organizations/{orgId}/projects/{projectId}/obs/alerts', `${project}/obs/alerts`, {
      limit: '10',
      state: 'firing',
      filter: 'alertname=~"bad-input.*"',
      q: 'probe',
    }),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/projects/{projectId}/obs/silences/preview',
        url: `${project}/obs/silences/preview`,
        method: 'POST',
        valid: { body: { matchers: [{ label: 'service', op: '=', value: 'bad-input-probe' }] } },
      },
      async (res) => expect(res.status(), await res.text()).toBe(200),
    ),
    list('GET /v1/organizations/{orgId}/audit-events', `${org}/audit-events`, { limit: '10', action: 'api_key.*' }),
    list('GET /v1/organizations/{orgId}/audit-events/export', `${org}/audit-events/export`, {
      format: 'ndjson',
      action: 'sign_in.succeeded',
    }),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/api-keys/{keyId}/roll',
        url: `${org}/api-keys/${rollable.apiKey.id}/roll`,
        method: 'POST',
        valid: { body: { gracePeriodSeconds: 3600 } },
        snapshot: () => keyIdentities(ada, demo.acme),
      },
      // 404 comes after every 400: the valid body against an unknown key proves it valid, and rolls nothing.
      async () => {
        const res = await ada.post(`${org}/api-keys/${randomUUID()}/roll`, { data: { gracePeriodSeconds: 3600 } });
        expect(res.status(), await res.text()).toBe(404);
      },
    ),
    target(
      {
        key: 'PATCH /v1/organizations/{orgId}/api-keys/{keyId}',
        url: `${org}/api-keys/${restricted.apiKey.id}`,
        method: 'PATCH',
        valid: {
          body: { permissions: ['obs.silences.list'], projectIds: [demo.production], allowedIps: ['127.0.0.0/8'] },
        },
        snapshot: async () => (await listKeys(ada, demo.acme)).find((k) => k.id === restricted.apiKey.id),
      },
      async (res) => expect(res.status(), await res.text()).toBe(200),
    ),
    target(
      {
        key: 'POST /v1/secret-scanning/reports',
        url: '/v1/secret-scanning/reports',
        method: 'POST',
        // A token no credential can be (its checksum fails): answered false_positive, nothing revoked.
        valid: { body: [leak(`svc_${'A'.repeat(40)}`)] },
        sign: (body) => ({
          'Secret-Scanning-Key-Identifier': scanner.keyId,
          'Secret-Scanning-Signature': signatureFor(body, scanner),
        }),
        snapshot: () => keyIdentities(ada, demo.acme),
      },
      async (res) => expect(res.status(), await res.text()).toBe(200),
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/api-keys',
        url: `${org}/api-keys`,
        method: 'POST',
        valid: {
          body: {
            name: 'bad-input probe',
            expiresInDays: 30,
            botId: demo.deployBot,
            permissions: ['queues.subscriptions.list'],
            projectIds: [demo.production],
            allowedIps: ['127.0.0.1', '2001:db8::/32'],
          },
        },
        snapshot: () => keyIdentities(ada, demo.acme),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        const { apiKey } = (await res.json()) as { apiKey: { id: string } };
        expect((await ada.delete(`${org}/api-keys/${apiKey.id}`)).status()).toBe(204);
      },
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/scim-tokens',
        url: `${org}/scim-tokens`,
        method: 'POST',
        valid: { body: {} },
        // A refused request must not revoke the token it would replace.
        snapshot: async () =>
          (await ada.get('/scim/v2/Users', { headers: { authorization: `Bearer ${scimToken}` } })).status(),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        scimToken = ((await res.json()) as { token: string }).token;
      },
    ),
    target(
      {
        key: 'PATCH /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}',
        url: subPath(sub),
        method: 'PATCH',
        // The current values: valid, and a change of nothing.
        valid: {
          body: {
            batchSize: sub.batchSize,
            maxConcurrency: sub.maxConcurrency,
            target: sub.target,
            retryPolicy: sub.retryPolicy,
          },
        },
        snapshot: () => read(subPath(sub)),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(200);
        expect(((await res.json()) as { updatedAt: string }).updatedAt).toBe(sub.updatedAt);
      },
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/projects/{projectId}/obs/silences',
        url: `${project}/obs/silences`,
        method: 'POST',
        valid: {
          headers: { 'Idempotency-Key': 'replaced-per-request' },
          body: {
            comment: 'bad-input probe',
            matchers: [{ label: 'service', op: '=', value: 'bad-input-probe' }],
            endsAt: new Date(Date.now() + 86_400_000).toISOString(),
          },
        },
        // Which silences exist, at which version: a refused create adds none and changes none.
        snapshot: async () =>
          ((await read(`${project}/obs/silences?limit=100`)).items as { id: string; version: number }[]).map(
            (s) => `${s.id}@${s.version}`,
          ),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        const created = (await res.json()) as { id: string; version: number };
        const gone = await ada.delete(`${project}/obs/silences/${created.id}`, {
          headers: { 'If-Match': `"${created.version}"` },
        });
        expect(gone.status(), await gone.text()).toBe(200);
      },
    ),
    probed(
      {
        key: 'DELETE /v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
        url: silenceUrl,
        method: 'DELETE',
        valid: { headers: { 'If-Match': `"${silence.version}"`, 'Idempotency-Key': 'replaced-per-request' } },
        snapshot: () => read(silenceUrl),
      },
      // 412 comes after every 400: a stale If-Match proves the headers valid, and expires nothing.
      async () => {
        const res = await ada.delete(silenceUrl, {
          headers: { 'If-Match': '"999999"', 'Idempotency-Key': randomUUID() },
        });
        expect(res.status(), await res.text()).toBe(412);
      },
    ),
    probed(
      {
        key: 'PATCH /v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
        url: silenceUrl,
        method: 'PATCH',
        valid: {
          headers: { 'If-Match': `"${silence.version}"`, 'Idempotency-Key': 'replaced-per-request' },
          body: {
            comment: 'bad-input probe',
            matchers: [
              { label: 'service', op: '=', value: 'api' },
              { label: 'env', op: '=~', value: 'prod|staging' },
            ],
            startsAt: silence.startsAt,
            endsAt: silence.endsAt,
          },
        },
        snapshot: () => read(silenceUrl),
      },
      // 412 comes after every 400: a stale If-Match proves the body and headers are valid, and changes nothing.
      async () => {
        const res = await ada.patch(silenceUrl, {
          headers: { 'If-Match': '"999999"', 'Idempotency-Key': randomUUID() },
          data: { comment: 'bad-input probe' },
        });
        expect(res.status(), await res.text()).toBe(412);
      },
    ),
    target(
      {
        key: 'PATCH /v1/organizations/{orgId}',
        url: org,
        method: 'PATCH',
        // A key policy every Acme key keeps but a never-expiring one, set by the check and removed at once.
        valid: {
          body: {
            requireTwoFactor: false,
            keyPolicy: { maxLifetimeDays: 365, requireRestrictions: false, allowedIps: ['0.0.0.0/0', '::/0'] },
          },
        },
        snapshot: () => read('/v1/organizations?limit=100'),
      },
      async (res) => {
        const cleared = await ada.patch(org, { data: { keyPolicy: null } });
        expect(res.status(), await res.text()).toBe(200);
        expect(cleared.status(), await cleared.text()).toBe(200);
      },
    ),
    list('GET /v1/organizations/{orgId}/webhooks', `${org}/webhooks`, { limit: '10' }),
    list('GET /v1/organizations/{orgId}/webhooks/{webhookId}/deliveries', `${hookUrl}/deliveries`, { limit: '10' }),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/webhooks',
        url: `${org}/webhooks`,
        method: 'POST',
        valid: { body: { url: WEBHOOK_PROBE_URL, events: ['api_key.revoked'], description: 'bad-input probe' } },
        snapshot: () => webhookIds(ada, org),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        const { webhook } = (await res.json()) as { webhook: { id: string } };
        expect((await ada.delete(`${org}/webhooks/${webhook.id}`)).status()).toBe(204);
      },
    ),
    target(
      {
        key: 'PATCH /v1/organizations/{orgId}/webhooks/{webhookId}',
        url: hookUrl,
        method: 'PATCH',
        // Its current values: valid, and a change of nothing.
        valid: { body: { description: hook.description, events: hook.events, enabled: false } },
        snapshot: () => read(hookUrl),
      },
      async (res) => expect(res.status(), await res.text()).toBe(200),
    ),
    list('GET /v1/me/notifications', '/v1/me/notifications', { limit: '10' }),
    target(
      {
        key: 'POST /v1/me/notifications/read',
        url: '/v1/me/notifications/read',
        method: 'POST',
        // An id that names none of ada's notifications: valid, and marks nothing.
        valid: { body: { ids: [randomUUID()] } },
        snapshot: () => read('/v1/me/notifications?limit=100'),
      },
      async (res) => expect(res.status(), await res.text()).toBe(204),
    ),
    target(
      {
        key: 'PATCH /v1/me/notification-preferences',
        url: '/v1/me/notification-preferences',
        method: 'PATCH',
        valid: { body: { key_leaked: await preference(ada, 'key_leaked') } },
        snapshot: () => read('/v1/me/notification-preferences'),
      },
      async (res) => expect(res.status(), await res.text()).toBe(200),
    ),
    target(
      {
        key: 'POST /v1/me/totp/confirm',
        url: '/v1/me/totp/confirm',
        method: 'POST',
        valid: { body: { code: '123456' } },
        snapshot: () => mySecurity(),
      },
      // 409 comes after every 400: with no enrolment pending, a valid body turns nothing on.
      async (res) => expect(res.status(), await res.text()).toBe(409),
    ),
    target(
      {
        key: 'POST /v1/me/sudo',
        url: '/v1/me/sudo',
        method: 'POST',
        valid: { body: { password: 'correct-horse-battery' } },
        snapshot: () => mySecurity(),
      },
      async (res) => expect(res.status(), await res.text()).toBe(200),
    ),
  ];
}

// Never reached: the probe endpoint is disabled, and a created one is deleted at once.
const WEBHOOK_PROBE_URL = 'https://hooks.example.com/bad-input';

/** An endpoint for the PATCH and deliveries probes, disabled so that nothing is ever queued for it. */
async function disabledWebhook(ada: APIRequestContext, org: string) {
  const res = await ada.post(`${org}/webhooks`, {
    data: { url: WEBHOOK_PROBE_URL, events: ['api_key.revoked'], description: 'bad-input PATCH probe' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { webhook } = (await res.json()) as { webhook: { id: string; description: string; events: string[] } };
  const off = await ada.patch(`${org}/webhooks/${webhook.id}`, { data: { enabled: false } });
  expect(off.status(), await off.text()).toBe(200);
  return webhook;
}

async function webhookIds(ada: APIRequestContext, org: string): Promise<string[]> {
  const res = await ada.get(`${org}/webhooks?limit=100`);
  return ((await res.json()) as { items: { id: string }[] }).items.map((w) => w.id);
}

async function preference(ada: APIRequestContext, kind: string): Promise<boolean> {
  const res = await ada.get('/v1/me/notification-preferences');
  return ((await res.json()) as Record<string, boolean>)[kind];
}

/** Ada's factors as GET /v1/me/security shows them, without the window a valid probe moves on. */
async function mySecurity(): Promise<unknown> {
  const res = await adaContext!.get('/v1/me/security');
  const security = (await res.json()) as Record<string, unknown>;
  delete security.sudoExpiresAt;
  return security;
}
let adaContext: APIRequestContext | undefined;

/** The SCIM token the scim-tokens target made last; its still working is what "unchanged" means there. */
export let scimToken = '';

/** Sends the valid request of a target with one mutation (none: the valid request itself). */
export function send(
  ctx: APIRequestContext,
  t: Pick<Target, 'url' | 'method' | 'valid' | 'sign'>,
  m?: Mutation,
): Promise<APIResponse> {
  const built = build(t.valid, m);
  const headers = { ...built.headers, ...(t.sign && built.body ? t.sign(built.body) : {}) };
  // A new Idempotency-Key each time, so a stored answer can never stand in for the one under test.
  if ('Idempotency-Key' in headers && !(m?.where === 'header' && m.path[0] === 'Idempotency-Key'))
    headers['Idempotency-Key'] = randomUUID();
  if (built.body) headers['content-type'] = 'application/json';
  const search = built.search ? `?${built.search}` : '';
  return ctx.fetch(`${t.url}${search}`, { method: t.method, headers, data: built.body });
}
