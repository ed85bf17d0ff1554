import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { z } from 'zod';
import type { Operation } from '../../lib/pipeline/operation';
import { idNounOf, shortIdResourceOf, UUID_ID_NOUNS } from '../../lib/short-ids';
import { allOperations } from '../../server/operations';
import { bearer, expect, expectError, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { createKey, listKeys } from '../support/api-keys';

// One id everywhere (PRODUCT.md, "The first hour"): the ids of API keys, bots, webhooks and members are uuids only,
// and a 404 names the one it did not find, as it does for a queue's. The operations come from the registry, so a new
// one that takes such an id is swept without a new test (a body it needs goes in BODIES).

type Named = { name: string; noun: string };

const nameOf = (op: Operation) => `${op.method} ${op.path}`;

/** The path parameters of an operation declared with `uuidIdParam`, read from its schema as the pipeline reads them. */
function uuidIdParams(op: Operation): Named[] {
  const shape = op.params && 'shape' in op.params ? (op.params as unknown as z.ZodObject).shape : {};
  return Object.entries(shape).flatMap(([name, schema]) => {
    const noun = idNounOf(schema as z.ZodType);
    return noun && !shortIdResourceOf(schema as z.ZodType) ? [{ name, noun }] : [];
  });
}

const OPERATIONS = allOperations.map((op) => ({ op, named: uuidIdParams(op) })).filter(({ named }) => named.length);

/** A valid body, so the 404 is the id's and not a 400 of the body. */
const BODIES: Record<string, unknown> = {
  'PATCH /v1/organizations/{orgId}/api-keys/{keyId}': { permissions: ['obs.silences.list'] },
  'POST /v1/organizations/{orgId}/api-keys/{keyId}/roll': { gracePeriodSeconds: 3600 },
  'PUT /v1/organizations/{orgId}/bots/{botId}/policies': { policies: [{ policy: 'BasicAccess', projectId: null }] },
  'PUT /v1/organizations/{orgId}/members/{userId}/policies': { policies: [{ policy: 'BasicAccess', projectId: null }] },
  'PATCH /v1/organizations/{orgId}/webhooks/{webhookId}': { enabled: false },
};

const missing = (noun: string, id: string) => `No ${noun} ${id} in this organization.`;

test.describe('a 404 names the key, bot, webhook or member it could not find', () => {
  let demo: Demo;
  let key: APIRequestContext;
  /** ada's session, for the operations API keys may not call (a key's own changes, a new key). */
  let ada: APIRequestContext;
  /** Globex's ids, which Acme's key must not find: each a 404 like an unknown id. */
  let elsewhere: Record<string, string>;
  /** Acme's own ids that are gone: a revoked key, a deleted bot. */
  let gone: Record<string, string>;

  test.beforeAll(async () => {
    demo = await loadDemo();
    ada = await sessionFor('ada');
    const gil = await sessionFor('gil');
    // A key, not the session: the sudo operations ask a session for a recent sign-in, never a bearer.
    const { secret } = await createKey(ada, demo.acme, { name: `named ids ${Date.now()}`, expiresInDays: 1 });
    key = await bearer(secret);

    const globex = `/v1/organizations/${demo.globex}`;
    const globexKey =
      (await listKeys(gil, demo.globex))[0] ?? (await createKey(gil, demo.globex, { name: 'n' })).apiKey;
    const bots = (await (await gil.get(`${globex}/bots`)).json()) as { items: { id: string }[] };
    const hook = await gil.post(`${globex}/webhooks`, {
      data: { url: 'https://hooks.example.com/named-ids', events: ['api_key.revoked'], description: 'named ids' },
    });
    expect(hook.status(), await hook.text()).toBe(201);
    elsewhere = {
      'API key': globexKey.id,
      bot: bots.items[0].id,
      webhook: ((await hook.json()) as { webhook: { id: string } }).webhook.id,
      member: demo.users.gil,
    };

    const acme = `/v1/organizations/${demo.acme}`;
    const revoked = await createKey(ada, demo.acme, { name: `named ids revoked ${Date.now()}`, expiresInDays: 1 });
    expect((await ada.delete(`${acme}/api-keys/${revoked.apiKey.id}`)).status()).toBe(204);
    const bot = await key.post(`${acme}/bots`, {
      data: { name: `named-ids-${Date.now()}`, policies: [{ policy: 'BasicAccess', projectId: null }] },
    });
    expect(bot.status(), await bot.text()).toBe(201);
    const botId = ((await bot.json()) as { id: string }).id;
    expect((await key.delete(`${acme}/bots/${botId}`)).status()).toBe(204);
    gone = { 'API key': revoked.apiKey.id, bot: botId };
    await gil.dispose();
  });
  test.afterAll(async () => {
    await key?.dispose();
    await ada?.dispose();
  });
  const callerOf = (op: Operation) => ((op.credentials as readonly string[]).includes('api_key') ? key : ada);

  test('the registry names the operations: keys, bots, webhooks and members', () => {
    const nouns = new Set(OPERATIONS.flatMap(({ named }) => named.map((n) => n.noun)));
    expect([...nouns].sort()).toEqual(Object.values(UUID_ID_NOUNS).sort());
    // Keys (5), bots (2), webhooks (7), members (2), as of this writing: a new one only adds to these.
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(16);
  });

  for (const { op, named } of OPERATIONS) {
    test(`${nameOf(op)}: an unknown, malformed, gone or other organization's id is a 404 naming it`, async () => {
      for (const n of named) {
        const cases = [
          { label: 'an unknown uuid', id: randomUUID() },
          { label: 'a malformed id', id: 'nope' },
          { label: 'another organization’s', id: elsewhere[n.noun] },
          ...(gone[n.noun] ? [{ label: 'one that is gone', id: gone[n.noun] }] : []),
        ];
        for (const { label, id } of cases) {
          const samples: Record<string, string> = { orgId: demo.acme, deliveryId: randomUUID(), [n.name]: id };
          const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
            if (!(name in samples)) throw new Error(`${nameOf(op)}: no sample for {${name}}; add one`);
            return samples[name];
          });
          const res = await callerOf(op).fetch(url, {
            method: op.method,
            data: op.body ? BODIES[nameOf(op)] : undefined,
          });
          const error = await expectError(res, 404, 'not_found');
          expect(error.message, `${nameOf(op)} with ${label} for {${n.name}}`).toBe(missing(n.noun, id));
        }
      }
    });
  }

  test('a key for a bot that is not there names the bot', async () => {
    const botId = randomUUID();
    const res = await ada.post(`/v1/organizations/${demo.acme}/api-keys`, { data: { name: 'for no bot', botId } });
    expect((await expectError(res, 404, 'not_found')).message).toBe(missing('bot', botId));
  });
});
