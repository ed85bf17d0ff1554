import fc from 'fast-check';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { expect, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { bodySlots, dotted, expectedIssuePath, parameterSlots, sentPaths, type Mutation } from '../support/bad-input';
import { buildTargets, JSON_BODY_TARGET_KEYS, send, type Target } from '../support/bad-input-targets';
import { SchemaReader, type OpenApiDocument } from '../support/openapi-schema';
import { FUZZ, outsideV1Cases } from '../support/bad-input-outside';
import { ONBOARDING_TARGET_KEYS } from '../support/bad-input-targets-onboarding';
import { QUEUE_TARGET_KEYS } from '../support/bad-input-targets-queues';

// Generated from GET /v1/openapi.json: every operation with a body, query or declared header gets every
// class of bad input the issue names, each on an otherwise valid request. FUZZ_RUNS / FUZZ_SEED widen a run.

let ada: APIRequestContext;
let demo: Demo;
let doc: OpenApiDocument;
let reader: SchemaReader;
let targets: Map<string, Target>;
let cases = 0;

/** Operations of the document that take input beyond their path, as `METHOD /path`. */
function inputOperations(): string[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.requestBody || op.parameters?.some((p) => p.in !== 'path'))
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

test.beforeAll(async ({ request }) => {
  demo = await loadDemo();
  ada = await sessionFor('ada');
  doc = (await (await request.get('/v1/openapi.json')).json()) as OpenApiDocument;
  reader = new SchemaReader(doc);
  targets = new Map((await buildTargets(ada, demo)).map((t) => [t.key, t]));
  // The checks send valid requests; none may change the demo silence that other files look for by its state.
  const silence = targets.get('DELETE /v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}')!.url;
  const before = await (await ada.get(silence)).json();
  for (const t of targets.values()) await t.check();
  expect(await (await ada.get(silence)).json(), 'the checks changed the demo silence').toEqual(before);
});

test.afterAll(async () => {
  console.log(`bad-input: ${cases} generated cases (seed ${FUZZ.seed}, ${FUZZ.runs} random runs per operation)`);
  await ada.dispose();
});

test('every operation that takes input has a valid request to mutate, and is fuzzed', () => {
  expect(
    inputOperations()
      .filter((k) => !NOT_FUZZED.includes(k))
      .sort(),
  ).toEqual([...targets.keys()].sort());
  expect([...TARGET_KEYS].sort()).toEqual([...targets.keys()].sort());
});

/** The exact envelope, a 4xx, issues at real paths without duplicates, naming the mutated field. */
async function expectRefused(res: APIResponse, t: Target, m: Mutation): Promise<void> {
  const text = await res.text();
  const label = `${t.key} ${m.kind} at "${dotted(m.path)}": ${res.status()} ${text.slice(0, 300)}`;
  const ifMatch = m.where === 'header' && m.path[0] === 'If-Match';
  expect(ifMatch ? [400, 412] : [400], label).toContain(res.status());
  expect(res.headers()['content-type'], label).toContain('application/json');
  expect(res.headers()['x-request-id'], label).toMatch(/^req_[0-9a-f]+$/);
  const body = JSON.parse(text) as {
    error: { code: string; message: string; issues?: { path: string; message: string }[] };
  };
  expect(Object.keys(body), label).toEqual(['error']);
  expect(
    Object.keys(body.error).every((k) => ['code', 'message', 'issues'].includes(k)),
    label,
  ).toBe(true);
  expect(body.error.code, label).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  expect(body.error.issues === undefined || body.error.issues.length > 0, label).toBe(true);
  expect(body.error.message.length, label).toBeGreaterThan(0);
  expect(body.error.message.length, label).toBeLessThanOrEqual(1024);
  if (res.status() !== 400) return;
  // Next turns a query's invalid UTF-8 into U+FFFD before the app sees it: an opaque cursor is then not ours.
  const replaced = m.where === 'query' && m.kind === 'invalid UTF-8' && m.path[0] === 'cursor';
  if (replaced && body.error.code === 'invalid_cursor') return;
  expect(body.error.code, label).toBe('invalid_request');
  const issues = body.error.issues ?? [];
  const paths = issues.map((i) => i.path);
  expect(new Set(paths).size, label).toBe(paths.length);
  // A repeated query parameter (`action=a&action=b`) is an array: its issues sit at `action.N`.
  const expected = expectedIssuePath(m);
  const element = (path: string, name: string) => m.where === 'query' && path.startsWith(`${name}.`);
  expect(
    paths.some((p) => p === expected || element(p, expected)),
    `${label}: no issue at "${expected}"`,
  ).toBe(true);
  const real = sentPaths(t.valid, m);
  for (const issue of issues) {
    expect(Object.keys(issue).sort(), label).toEqual(['message', 'path']);
    const sent = real.has(issue.path) || [...real].some((name) => element(issue.path, name));
    expect(sent, `${label}: issue at "${issue.path}" names no field sent`).toBe(true);
    expect(issue.message.length, label).toBeGreaterThan(0);
  }
}

const TARGET_KEYS = [
  'GET /v1/organizations',
  'GET /v1/organizations/{orgId}/projects',
  'GET /v1/organizations/{orgId}/members',
  'GET /v1/organizations/{orgId}/bots',
  'GET /v1/organizations/{orgId}/api-keys',
  'GET /v1/organizations/{orgId}/projects/{projectId}/subscriptions',
  'GET /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters',
  'GET /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/deliveries',
  'GET /v1/organizations/{orgId}/projects/{projectId}/obs/silences',
  'GET /v1/organizations/{orgId}/projects/{projectId}/obs/alerts',
  'GET /v1/organizations/{orgId}/audit-events',
  'GET /v1/organizations/{orgId}/audit-events/export',
  'DELETE /v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
  'GET /v1/organizations/{orgId}/webhooks',
  'GET /v1/organizations/{orgId}/webhooks/{webhookId}/deliveries',
  'GET /v1/me/notifications',
  ...JSON_BODY_TARGET_KEYS,
  ...ONBOARDING_TARGET_KEYS,
  ...QUEUE_TARGET_KEYS,
];

// Its `response` is a WebAuthn object with open-ended fields that @simplewebauthn/server checks, so an unknown
// field there is not a validation issue at its path. Not fuzzed here; see docs/second-factor.md.
const NOT_FUZZED = ['POST /v1/me/passkeys'];

for (const key of TARGET_KEYS) {
  test(`bad input to ${key}: 4xx, exact envelope, nothing changed`, async () => {
    test.setTimeout(120_000);
    const t = targets.get(key)!;
    const [method, path] = key.split(' ');
    const op = doc.paths[path][method.toLowerCase()];
    const body = op.requestBody?.content['application/json'].schema;
    const slots = [
      ...(body ? bodySlots(reader, body, t.valid.body, op.requestBody?.required ?? false) : []),
      ...(op.parameters ?? []).filter((p) => p.in !== 'path').flatMap((p) => parameterSlots(p, reader)),
    ];
    expect(slots.length).toBeGreaterThan(0);
    const before = await t.snapshot?.();
    await fc.assert(
      fc.asyncProperty(fc.oneof(...slots.map((s) => s.arb)), async (m) => {
        cases++;
        await expectRefused(await send(ada, t, m), t, m);
        if (t.snapshot) expect(await t.snapshot(), `${key} changed after ${m.kind}`).toEqual(before);
      }),
      { seed: FUZZ.seed, numRuns: FUZZ.runs, examples: slots.map((s) => [s.example]), endOnFailure: true },
    );
  });
}

test('unknown /v1 paths are 404 and missing methods 405, in the envelope, with Allow from the document', async ({
  request,
}) => {
  const fill = (path: string) =>
    path
      .replace('{orgId}', demo.acme)
      .replace('{projectId}', demo.production)
      .replace(/\{[A-Za-z]+\}/g, '00000000-0000-4000-8000-000000000000');
  for (const unknown of [
    '/v1',
    '/v1/nope',
    `/v1/organizations/${demo.acme}/nope`,
    '/v1/organizations/x/projects/y/z',
  ]) {
    const res = await ada.fetch(unknown, { method: 'GET' });
    expect(res.status(), unknown).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  }
  for (const [path, methods] of Object.entries(doc.paths)) {
    const declared = Object.keys(methods).map((m) => m.toUpperCase());
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !declared.includes(m))) {
      const res = await request.fetch(fill(path), { method });
      const label = `${method} ${path}`;
      expect(res.status(), label).toBe(405);
      expect(((await res.json()) as { error: { code: string } }).error.code, label).toBe('method_not_allowed');
      expect(
        res
          .headers()
          ['allow']?.split(', ')
          .filter((m) => !['HEAD', 'OPTIONS'].includes(m))
          .sort(),
        label,
      ).toEqual(declared.sort());
    }
  }
});

test('routes outside /v1 that take input (device login, SCIM, sign-in) never answer 5xx', async () => {
  test.setTimeout(120_000);
  for (const { name, arb, send: go } of await outsideV1Cases(ada, demo)) {
    await fc.assert(
      fc.asyncProperty(arb, async (input) => {
        cases++;
        const res = await go(input);
        expect(res.status(), `${name}: ${JSON.stringify(input).slice(0, 200)} → ${await res.text()}`).toBeLessThan(500);
      }),
      { seed: FUZZ.seed, numRuns: FUZZ.outsideRuns, endOnFailure: true },
    );
  }
});

test('the generated cases number at least 2,000', () => {
  expect(cases).toBeGreaterThanOrEqual(2000);
});
