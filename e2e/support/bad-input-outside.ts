import fc from 'fast-check';
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { Demo } from '../fixtures';
import { userIdOf } from './api-keys';
import { bodySlots, build, type Mutation } from './bad-input';
import { scimToken } from './bad-input-targets';
import { baseURL } from './env';
import { SchemaReader } from './openapi-schema';

/**
 * Fixed in CI so a failure replays; FUZZ_RUNS and FUZZ_SEED widen or vary a local run. CI runs the suite twice,
 * on the embedded database and on PostgreSQL: each run draws its own cases (a seed of its own), so together they
 * send twice as many different ones as either, in the time of one.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 85);
export const FUZZ = {
  seed: Number(process.env.FUZZ_SEED ?? (process.env.DATABASE_URL ? 20261123 : 20261122)),
  runs: RUNS,
  outsideRuns: Math.max(20, Math.round(RUNS / 2)),
};

/** Bad text for a form field or query value, already percent-encoded as it goes on the wire. */
const badFormValue = fc.oneof(
  fc.constantFrom('%00', 'a%00b', '%FF', '%C0%AF', '%ED%A0%80', '%E2%82', '%F4%90%80%80', '%', '%zz', ''),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
);

/** Bad text inside a SCIM filter's quoted value: wire escapes and SCIM/JSON escapes for NUL and surrogates. */
const badFilterValue = fc.constantFrom(
  '%00',
  '%FF',
  '%ED%A0%80',
  '%5Cu0000',
  '%5Cud800',
  '%5C',
  'x'.repeat(5000),
  '%22',
);

export type OutsideCase<T> = { name: string; arb: fc.Arbitrary<T>; send: (input: T) => Promise<APIResponse> };

function formCase(ctx: APIRequestContext, name: string, url: string, valid: Record<string, string>) {
  const fields = Object.keys(valid);
  return {
    name,
    arb: fc.record({ field: fc.constantFrom(...fields), value: badFormValue, rawBytes: fc.boolean() }),
    send: ({ field, value, rawBytes }: { field: string; value: string; rawBytes: boolean }) => {
      const pairs = fields.map((f) => `${f}=${f === field ? value : encodeURIComponent(valid[f])}`).join('&');
      // rawBytes: the same body with the bad bytes unescaped, so the body itself is not UTF-8.
      const body = rawBytes
        ? Buffer.from(
            pairs.replace(/%([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          )
        : Buffer.from(pairs);
      return ctx.post(url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: body });
    },
  } satisfies OutsideCase<{ field: string; value: string; rawBytes: boolean }>;
}

function jsonCase(ctx: APIRequestContext, name: string, method: string, url: string, valid: unknown) {
  const slots = bodySlots(new SchemaReader({ paths: {} }), {}, valid, true);
  // Never a bad request that happens to suspend the user: `active` stays out of every generated body.
  const safe = (m: Mutation) => m.key?.toLowerCase() !== 'active';
  return {
    name,
    arb: fc.oneof(...slots.map((s) => s.arb)).filter(safe),
    send: (m: Mutation) =>
      ctx.fetch(url, {
        method,
        headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
        data: build({ body: valid }, m).body,
      }),
  } satisfies OutsideCase<Mutation>;
}

/** Each route outside /v1 that takes input, with a valid request and bad variants of each of its inputs. */
export async function outsideV1Cases(ada: APIRequestContext, demo: Demo): Promise<OutsideCase<never>[]> {
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const samId = await userIdOf(ada, demo.acme, 'sam@acme.test');
  const scim = { authorization: `Bearer ${scimToken}` };
  const { csrfToken } = (await (await anonymous.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const cases = [
    formCase(anonymous, 'POST /oauth/device/code', '/oauth/device/code', { client_id: 'svc-cli', scope: 'api' }),
    formCase(anonymous, 'POST /oauth/token', '/oauth/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: 'not-a-real-code',
      client_id: 'svc-cli',
    }),
    formCase(anonymous, 'POST /api/auth/callback/credentials', '/api/auth/callback/credentials', {
      csrfToken,
      email: 'nobody@acme.test',
      password: 'wrong password',
      json: 'true',
    }),
    {
      name: 'GET /scim/v2/Users?filter',
      arb: fc.tuple(fc.constantFrom('userName', 'externalId', 'id'), badFilterValue),
      send: ([attribute, value]: [string, string]) =>
        anonymous.get(`/scim/v2/Users?filter=${attribute}%20eq%20%22${value}%22&startIndex=1&count=${value}`, {
          headers: scim,
        }),
    },
    {
      name: 'GET /scim/v2/Users/{id}',
      arb: badFilterValue,
      send: (value: string) => anonymous.get(`/scim/v2/Users/${value === '' ? '%20' : value}`, { headers: scim }),
    },
    jsonCase(anonymous, 'PATCH /scim/v2/Users/{id}', 'PATCH', `/scim/v2/Users/${samId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'externalId', value: 'bad-input' }],
    }),
    jsonCase(anonymous, 'PUT /scim/v2/Users/{id}', 'PUT', `/scim/v2/Users/${samId}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'sam@acme.test',
      externalId: 'bad-input',
    }),
  ];
  return cases as unknown as OutsideCase<never>[];
}
