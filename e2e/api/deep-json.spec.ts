import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { expect, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { buildTargets, JSON_BODY_TARGET_KEYS, scimToken, type Target } from '../support/bad-input-targets';
import { FUZZ } from '../support/bad-input-outside';
import { ONBOARDING_TARGET_KEYS } from '../support/bad-input-targets-onboarding';
import { QUEUE_TARGET_KEYS } from '../support/bad-input-targets-queues';
import { pathsOf, type Path } from '../support/openapi-schema';
import { userIdOf } from '../support/api-keys';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE } from '../../lib/http/json-body';
import { MAX_DELAY_SECONDS } from '../../lib/queues/schema';

// Depth x route, generated: every JSON operation of /v1 and SCIM gets bodies nested from 1 to 100,000 levels
// at each of its fields (and at a new one), and answers 400 with the depth issue exactly past 32 levels,
// never 500, with nothing changed.

let ada: APIRequestContext;
let demo: Demo;
let targets: Target[];
let cases = 0;

const RUNS = Math.max(25, Math.round(FUZZ.runs / 3));
const PLACEHOLDER = '"__deep_json_probe__"';

type Nest = { depth: number; kind: 'array' | 'object' | 'mixed'; at: Path };

/** `n` containers around a string, written as text: JSON.stringify itself overflows on 100,000 levels. */
function nest(n: number, kind: Nest['kind']): string {
  const arrayAt = (i: number) => kind === 'array' || (kind === 'mixed' && i % 2 === 0);
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < n; i++) {
    open.push(arrayAt(i) ? '[' : '{"k":');
    close.push(arrayAt(i) ? ']' : '}');
  }
  return `${open.join('')}"x"${close.reverse().join('')}`;
}

/** The valid body with the value at `at` (or a new field there) replaced by a nest; and its total depth. */
function deepBody(valid: unknown, { depth, kind, at }: Nest): { text: string; total: number } {
  const copy = structuredClone(valid) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[at[at.length - 1]] = PLACEHOLDER.slice(1, -1);
  // The nest sits inside as many containers as the path has keys.
  return { text: JSON.stringify(copy).replace(PLACEHOLDER, nest(depth, kind)), total: at.length + depth };
}

/** Every place a nest can go: each field of the valid body, and a new field beside the top-level ones. */
function places(valid: unknown): Path[] {
  const fields = pathsOf(valid).filter((p) => p.length > 0);
  return Array.isArray(valid) ? fields : [...fields, ['deepJsonProbe']];
}

const arbitrary = (valid: unknown, min = 1, max = 100_000) =>
  fc.record<Nest>({
    depth: fc.oneof(fc.integer({ min, max: MAX_JSON_DEPTH + 4 }), fc.integer({ min, max })),
    kind: fc.constantFrom('array', 'object', 'mixed'),
    at: fc.constantFrom(...places(valid)),
  });

/** The fixed cases of every route: the limit itself, one past it, and 100,000 levels. */
const boundary = (valid: unknown): [Nest][] => {
  const at = places(valid)[0];
  return [MAX_JSON_DEPTH - at.length, MAX_JSON_DEPTH - at.length + 1, 100_000].map((depth) => [
    { depth, kind: 'array', at },
  ]);
};

function sendDeep(t: Target, text: string): Promise<APIResponse> {
  const body = Buffer.from(text);
  const headers: Record<string, string> = { ...t.valid.headers, 'content-type': 'application/json' };
  if ('Idempotency-Key' in headers) headers['Idempotency-Key'] = randomUUID();
  Object.assign(headers, t.sign?.(body));
  return ada.fetch(t.url, { method: t.method, headers, data: body });
}

test.beforeAll(async () => {
  demo = await loadDemo();
  ada = await sessionFor('ada');
  targets = (await buildTargets(ada, demo)).filter((t) => t.valid.body !== undefined);
  for (const t of targets) await t.check();
  targets = targets.map((t) =>
    t.key === PUBLISH ? { ...t, valid: { ...t.valid, body: refusedPublish(t.valid.body) } } : t,
  );
});

test.afterAll(async () => {
  console.log(`deep-json: ${cases} generated cases (seed ${FUZZ.seed}, ${RUNS} runs per route)`);
  await ada.dispose();
});

// Its `response` is a WebAuthn object that @simplewebauthn/server reads; the shared reader still bounds its depth.
const NOT_NESTED = ['POST /v1/me/passkeys'];

const PUBLISH = 'POST /v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}/messages';
/**
 * A message's body is any JSON value, so a nest within the limit in place of it would be published. A second
 * message that is always refused (its delay one second past the maximum) keeps every case refused, all or nothing:
 * nothing is published, and a nest within the limit answers that message's issue, not the depth's.
 */
function refusedPublish(valid: unknown) {
  const { messages } = valid as { messages: object[] };
  return { messages: [...messages, { body: 'never published', delaySeconds: MAX_DELAY_SECONDS + 1 }] };
}
const notGet = (key: string) => !key.startsWith('GET ');
const DEEP_KEYS = [
  ...JSON_BODY_TARGET_KEYS,
  ...QUEUE_TARGET_KEYS.filter(notGet),
  ...ONBOARDING_TARGET_KEYS.filter(notGet),
];

test('every /v1 operation with a JSON body is covered', async ({ request }) => {
  const doc = (await (await request.get('/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
  };
  const withJsonBody = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.requestBody?.content['application/json'])
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  expect(withJsonBody.filter((k) => !NOT_NESTED.includes(k)).sort()).toEqual([...DEEP_KEYS].sort());
  expect(targets.map((t) => t.key).sort()).toEqual([...DEEP_KEYS].sort());
});

test.describe('/v1', () => {
  for (const key of DEEP_KEYS) {
    test(`${key}: past ${MAX_JSON_DEPTH} levels is 400 at "", never 500, nothing changed`, async () => {
      test.setTimeout(180_000);
      const t = targets.find((x) => x.key === key)!;
      const before = await t.snapshot?.();
      await fc.assert(
        fc.asyncProperty(arbitrary(t.valid.body), async (n) => {
          cases++;
          const { text, total } = deepBody(t.valid.body, n);
          const res = await sendDeep(t, text);
          const label = `${key} ${n.kind} ${n.depth} at ${n.at.join('.')} (total ${total})`;
          expect(res.status(), `${label}: ${(await res.text()).slice(0, 200)}`).toBe(400);
          const body = (await res.json()) as { error: { code: string; issues: { path: string; message: string }[] } };
          if (total > MAX_JSON_DEPTH)
            expect(body, label).toEqual({
              error: {
                code: 'invalid_request',
                message: 'The request is not valid.',
                issues: [{ path: '', message: TOO_DEEP_MESSAGE }],
              },
            });
          else
            expect(
              body.error.issues.map((i) => i.message),
              label,
            ).not.toContain(TOO_DEEP_MESSAGE);
          if (t.snapshot) expect(await t.snapshot(), `${label} changed something`).toEqual(before);
        }),
        { seed: FUZZ.seed, numRuns: RUNS, examples: boundary(t.valid.body), endOnFailure: true },
      );
    });
  }
});

// Only past the limit (a shallow probe beside a valid operation would apply it), and within SCIM's 256 KiB body:
// 40,000 levels of `{"k":…}` are 240,000 bytes.
const SCIM_MAX_DEPTH = 40_000;

test('SCIM: past the limit is 400 invalidSyntax, never 500, and the user is unchanged', async () => {
  test.setTimeout(180_000);
  const samId = await userIdOf(ada, demo.acme, 'sam@acme.test');
  const scim = { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' };
  const url = `/scim/v2/Users/${samId}`;
  const read = async () => (await ada.get(url, { headers: scim })).json();
  const valid = {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'externalId', value: 'deep-json' }],
  };
  const before = await read();
  await fc.assert(
    fc.asyncProperty(arbitrary(valid, MAX_JSON_DEPTH + 1, SCIM_MAX_DEPTH), async (n) => {
      cases++;
      const { text, total } = deepBody(valid, n);
      const res = await ada.fetch(url, { method: 'PATCH', headers: scim, data: Buffer.from(text) });
      const label = `SCIM ${n.kind} ${n.depth} at ${n.at.join('.')} (total ${total})`;
      expect(res.status(), label).toBeLessThan(500);
      if (total > MAX_JSON_DEPTH)
        expect(await res.json(), label).toEqual({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '400',
          scimType: 'invalidSyntax',
          detail: TOO_DEEP_MESSAGE,
        });
      expect(await read(), `${label} changed the user`).toEqual(before);
    }),
    { seed: FUZZ.seed, numRuns: RUNS, examples: boundary(valid).slice(1), endOnFailure: true },
  );
});
