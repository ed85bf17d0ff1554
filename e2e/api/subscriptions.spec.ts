import type { APIRequestContext } from '@playwright/test';
import { PERMISSIONS, POLICIES } from '../../lib/permissions';
import { bearer, expect, expectError, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import {
  listSubs,
  loadDemoSubs,
  readSub,
  restoreSub,
  subPath,
  subsPath,
  type DemoSubs,
  type Sub,
} from '../support/subscriptions';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** A subscription's fields in the spec's order; a PATCH may change only WRITABLE ones. */
const SPEC_FIELDS = [
  'id',
  'organizationId',
  'projectId',
  'queueId',
  'resourceName',
  'slug',
  'state',
  'batchSize',
  'maxConcurrency',
  'target',
  'retryPolicy',
  'status',
  'createdAt',
  'updatedAt',
];
const WRITABLE = ['batchSize', 'maxConcurrency', 'target', 'retryPolicy'];
const FIELDS = [...SPEC_FIELDS].sort();

let demo: Demo;
let subs: DemoSubs;
let bob: APIRequestContext;

test.beforeAll(async () => {
  demo = await loadDemo();
  subs = await loadDemoSubs(demo);
  bob = await sessionFor('bob');
});
test.afterAll(async () => bob.dispose());

/** Sends the PATCH, asserts the exact 400 and its issue paths, and that the subscription is unchanged. */
async function expectRefused(sub: Sub, body: unknown, paths: string[]) {
  const before = await readSub(bob, sub);
  await expectError(await bob.patch(subPath(sub), { data: body as object }), 400, 'invalid_request', paths);
  expect(await readSub(bob, sub)).toEqual(before);
}

test.describe('reading subscriptions', () => {
  test('the list is the full resource of the spec, status always present, oldest first', async ({ as }) => {
    const cy = await as('cy');
    // Other suites add subscriptions to this project while this one runs; the seed's three are the oldest.
    const items = await listSubs(cy, demo.acme, demo.production);
    expect(new Set(items.slice(0, 3).map((s) => s.id))).toEqual(
      new Set([subs.https.id, subs.failing.id, subs.workflow.id]),
    );
    for (const sub of items) {
      expect(Object.keys(sub).sort()).toEqual(FIELDS);
      expect(sub).toMatchObject({ organizationId: demo.acme, projectId: demo.production });
      expect(sub.resourceName).toBe(`organizations/${demo.acme}/projects/${demo.production}/subscriptions/${sub.id}`);
      expect(sub.slug).toMatch(/^qsb_[a-z0-9]{12}$/);
      expect(sub.queueId).toMatch(/^[0-9a-f-]{36}$/);
      expect(['active', 'paused']).toContain(sub.state);
      expect(Object.keys(sub.status).sort()).toEqual(['health', 'lastError', 'lastSuccessAt']);
      expect(sub.createdAt).toMatch(ISO_MS);
      expect(sub.updatedAt).toMatch(ISO_MS);
    }
    expect(items.map((s) => s.createdAt)).toEqual(items.map((s) => s.createdAt).sort());
    expect(subs.https).toMatchObject({
      state: 'active',
      target: { kind: 'https', url: expect.any(String), timeoutSeconds: expect.any(Number) },
    });
    expect(subs.https.status).toEqual({
      health: 'healthy',
      lastError: null,
      lastSuccessAt: expect.stringMatching(ISO_MS),
    });
    expect(subs.failing).toMatchObject({ state: 'paused', status: { health: 'failing' } });
    expect(subs.failing.status.lastError).toEqual({
      at: expect.stringMatching(ISO_MS),
      class: expect.any(String),
      message: expect.any(String),
      status: 503,
    });
    expect(subs.workflow.target).toEqual({ kind: 'workflow', workflowId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  test('get one answers the same resource; limit and cursor walk the list; a bad cursor is 400', async ({ as }) => {
    const cy = await as('cy');
    expect(await readSub(cy, subs.failing)).toEqual(subs.failing);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await cy.get(`${subsPath(demo.acme, demo.production)}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = (await res.json()) as { items: Sub[]; nextCursor: string | null };
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    // Other suites add and delete their own subscriptions meanwhile: the walk starts with the seed's three, oldest
    // first, and sees each id once.
    expect(new Set(seen.slice(0, 3))).toEqual(new Set([subs.https.id, subs.failing.id, subs.workflow.id]));
    expect(new Set(seen).size).toBe(seen.length);
    await expectError(await cy.get(`${subsPath(demo.acme, demo.production)}?cursor=nope`), 400, 'invalid_cursor');
  });

  test('unknown, malformed, another project’s and another organization’s subscriptions are 404', async ({ as }) => {
    const ada = await as('ada');
    const production = subsPath(demo.acme, demo.production);
    await expectError(await ada.get(`${production}/${UNKNOWN_ID}`), 404, 'not_found');
    await expectError(await ada.get(`${production}/not-a-uuid`), 404, 'not_found');
    await expectError(await ada.get(`${production}/${subs.staging.id}`), 404, 'not_found');
    await expectError(
      await ada.patch(`${production}/${subs.staging.id}`, { data: { batchSize: 2 } }),
      404,
      'not_found',
    );
    await expectError(await ada.get(`${subsPath(demo.acme, demo.production)}/${subs.globex.id}`), 404, 'not_found');
    const gil = await as('gil');
    await expectError(await gil.get(subPath(subs.https)), 404, 'not_found');
    await expectError(await gil.get(subsPath(demo.acme, demo.production)), 404, 'not_found');
    await expectError(await gil.patch(subPath(subs.https), { data: { batchSize: 2 } }), 404, 'not_found');
    // Globex's own subscription under Globex's path is fine for gil, and names the same id 404 under Acme's.
    expect((await gil.get(subPath(subs.globex))).status()).toBe(200);
    await expectError(
      await gil.patch(`${subsPath(demo.globex, demo.globexProject)}/${subs.https.id}`, { data: { batchSize: 2 } }),
      404,
      'not_found',
    );
    expect(await readSub(ada, subs.https)).toEqual(subs.https);
  });
});

test.describe('changing a subscription', () => {
  test('batchSize and maxConcurrency change alone; 200 is the whole resource with a new updatedAt', async () => {
    try {
      const res = await bob.patch(subPath(subs.https), { data: { batchSize: 3, maxConcurrency: 7 } });
      expect(res.status()).toBe(200);
      const changed = (await res.json()) as Sub;
      expect(changed).toEqual({
        ...subs.https,
        batchSize: 3,
        maxConcurrency: 7,
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(subs.https.updatedAt));
      expect(await readSub(bob, subs.https)).toEqual(changed);
    } finally {
      await restoreSub(subs.https);
    }
  });

  test('the bounds are inclusive: 1 and 10, 1 and 100, timeout 1 and 60', async () => {
    try {
      for (const body of [
        { batchSize: 1, maxConcurrency: 1, target: { kind: 'https', timeoutSeconds: 1 } },
        { batchSize: 10, maxConcurrency: 100, target: { kind: 'https', timeoutSeconds: 60 } },
      ]) {
        const res = await bob.patch(subPath(subs.https), { data: body });
        expect(res.status()).toBe(200);
        expect(await res.json()).toMatchObject({
          batchSize: body.batchSize,
          maxConcurrency: body.maxConcurrency,
          target: { timeoutSeconds: body.target.timeoutSeconds },
        });
      }
    } finally {
      await restoreSub(subs.https);
    }
  });

  test('target merges field by field within its kind', async () => {
    try {
      const timeout = await bob.patch(subPath(subs.https), { data: { target: { kind: 'https', timeoutSeconds: 12 } } });
      expect((await timeout.json()).target).toEqual({ kind: 'https', url: subs.https.target.url, timeoutSeconds: 12 });
      const url = await bob.patch(subPath(subs.https), {
        data: { target: { kind: 'https', url: 'https://hooks.example.com/v2/orders' } },
      });
      expect((await url.json()).target).toEqual({
        kind: 'https',
        url: 'https://hooks.example.com/v2/orders',
        timeoutSeconds: 12,
      });
      const workflowId = '5c0a7a3e-7d3f-4f8e-9a40-2c8f0e7d6b11';
      const workflow = await bob.patch(subPath(subs.workflow), { data: { target: { kind: 'workflow', workflowId } } });
      expect(workflow.status()).toBe(200);
      expect((await workflow.json()).target).toEqual({ kind: 'workflow', workflowId });
    } finally {
      await restoreSub(subs.https);
      await restoreSub(subs.workflow);
    }
  });

  test('retryPolicy merges field by field', async () => {
    try {
      const res = await bob.patch(subPath(subs.https), { data: { retryPolicy: { maxAttempts: 8 } } });
      expect(res.status(), await res.text()).toBe(200);
      expect((await res.json()).retryPolicy).toEqual({ ...subs.https.retryPolicy, maxAttempts: 8 });
      const both = await bob.patch(subPath(subs.https), {
        data: { retryPolicy: { minBackoffSeconds: 0, maxBackoffSeconds: 1 } },
      });
      expect((await both.json()).retryPolicy).toEqual({ maxAttempts: 8, minBackoffSeconds: 0, maxBackoffSeconds: 1 });
    } finally {
      await restoreSub(subs.https);
    }
  });

  test('{} and a body that repeats the current values change nothing, updatedAt included', async () => {
    const before = await readSub(bob, subs.failing);
    for (const body of [
      {},
      { batchSize: before.batchSize },
      { target: { kind: 'https' } },
      { target: before.target },
      { retryPolicy: before.retryPolicy },
    ]) {
      const res = await bob.patch(subPath(subs.failing), { data: body });
      expect(res.status()).toBe(200);
      expect(await res.json()).toEqual(before);
    }
    expect(await readSub(bob, subs.failing)).toEqual(before);
  });
});

test.describe('refused bodies: 400 invalid_request at the field, nothing changed', () => {
  const numbers: [string, unknown, string][] = [
    ['batchSize 2.5', { batchSize: 2.5 }, 'batchSize'],
    ['batchSize "3"', { batchSize: '3' }, 'batchSize'],
    ['batchSize 0', { batchSize: 0 }, 'batchSize'],
    ['batchSize 11', { batchSize: 11 }, 'batchSize'],
    ['batchSize null', { batchSize: null }, 'batchSize'],
    ['maxConcurrency 2.5', { maxConcurrency: 2.5 }, 'maxConcurrency'],
    ['maxConcurrency "3"', { maxConcurrency: '3' }, 'maxConcurrency'],
    ['maxConcurrency 0', { maxConcurrency: 0 }, 'maxConcurrency'],
    ['maxConcurrency 101', { maxConcurrency: 101 }, 'maxConcurrency'],
    ['timeoutSeconds 0', { target: { kind: 'https', timeoutSeconds: 0 } }, 'target.timeoutSeconds'],
    ['timeoutSeconds 61', { target: { kind: 'https', timeoutSeconds: 61 } }, 'target.timeoutSeconds'],
    ['timeoutSeconds 2.5', { target: { kind: 'https', timeoutSeconds: 2.5 } }, 'target.timeoutSeconds'],
  ];
  for (const [what, body, path] of numbers) {
    test(`${what} is 400 at ${path}`, async () => expectRefused(subs.https, body, [path]));
  }

  const urls: [string, string][] = [
    ['plain http', 'http://hooks.example.com/orders'],
    ['private', 'https://10.0.0.1/'],
    ['private over http', 'http://10.0.0.1/'],
    ['a loopback name', 'http://localhost:8080/'],
    ['cloud metadata (link-local)', 'https://169.254.169.254/latest/meta-data'],
    ['user-info', 'https://user:secret@hooks.example.com/'],
    ['decimal loopback', 'https://2130706433/'],
    ['short loopback', 'https://127.1/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['a relative URL', '/orders'],
    ['over 2048 characters', `https://hooks.example.com/${'a'.repeat(2030)}`],
  ];
  for (const [what, url] of urls) {
    test(`a target URL with ${what} is 400 at target.url`, async () =>
      expectRefused(subs.https, { target: { kind: 'https', url } }, ['target.url']));
  }

  test('with WEBHOOK_ALLOW_LOOPBACK=1, as the test servers run, a loopback literal is a target, over http too', async () => {
    try {
      for (const url of ['http://127.0.0.1:9/orders', 'https://[::1]/orders']) {
        const res = await bob.patch(subPath(subs.https), { data: { target: { kind: 'https', url } } });
        expect(res.status(), await res.text()).toBe(200);
        expect((await readSub(bob, subs.https)).target.url).toBe(url);
      }
    } finally {
      await restoreSub(subs.https);
    }
  });

  test('retryPolicy: each field bounded, and a merged minimum backoff above the maximum refused at the field sent', async () => {
    await expectRefused(subs.https, { retryPolicy: { maxAttempts: 0 } }, ['retryPolicy.maxAttempts']);
    await expectRefused(subs.https, { retryPolicy: { maxAttempts: 101 } }, ['retryPolicy.maxAttempts']);
    await expectRefused(subs.https, { retryPolicy: { minBackoffSeconds: -1 } }, ['retryPolicy.minBackoffSeconds']);
    await expectRefused(subs.https, { retryPolicy: { maxBackoffSeconds: 3601 } }, ['retryPolicy.maxBackoffSeconds']);
    await expectRefused(subs.https, { retryPolicy: { extra: 1 } }, ['retryPolicy.extra']);
    const { minBackoffSeconds } = subs.https.retryPolicy;
    await expectRefused(subs.https, { retryPolicy: { maxBackoffSeconds: minBackoffSeconds - 1 } }, [
      'retryPolicy.maxBackoffSeconds',
    ]);
    await expectRefused(subs.https, { retryPolicy: { minBackoffSeconds: 60, maxBackoffSeconds: 30 } }, [
      'retryPolicy.minBackoffSeconds',
    ]);
  });

  test('the target kind can never change, and unknown or missing kinds are refused, at target.kind', async () => {
    await expectRefused(subs.https, { target: { kind: 'workflow' } }, ['target.kind']);
    await expectRefused(
      subs.https,
      { target: { kind: 'workflow', workflowId: '5c0a7a3e-7d3f-4f8e-9a40-2c8f0e7d6b11' } },
      ['target.kind'],
    );
    await expectRefused(
      subs.workflow,
      { target: { kind: 'https', url: 'https://hooks.example.com/', timeoutSeconds: 5 } },
      ['target.kind'],
    );
    await expectRefused(subs.https, { target: { kind: 'email' } }, ['target.kind']);
    await expectRefused(subs.https, { target: { url: 'https://hooks.example.com/' } }, ['target.kind']);
    await expectRefused(subs.https, { target: null }, ['target']);
  });

  test('a workflow target takes a UUID workflowId and none of the https fields', async () => {
    await expectRefused(subs.workflow, { target: { kind: 'workflow', workflowId: 'nope' } }, ['target.workflowId']);
    await expectRefused(subs.workflow, { target: { kind: 'workflow', url: 'https://hooks.example.com/' } }, [
      'target.url',
    ]);
  });

  test('unknown fields are 400 at their own path', async () => {
    await expectRefused(subs.https, { foo: 1 }, ['foo']);
    await expectRefused(subs.https, { target: { kind: 'https', foo: 1 } }, ['target.foo']);
  });

  const fixed = SPEC_FIELDS.filter((field) => !WRITABLE.includes(field));
  test(`fixed fields are not writable: ${fixed.join(', ')}`, async () => {
    for (const field of fixed) {
      const value = (subs.failing as unknown as Record<string, unknown>)[field];
      await expectRefused(subs.failing, { [field]: field === 'state' ? 'active' : value }, [field]);
    }
  });

  test('every problem of a request is reported at once', async () => {
    await expectRefused(
      subs.https,
      {
        batchSize: 0,
        maxConcurrency: 101,
        slug: 'qsb_aaaaaaaaaaaa',
        target: { kind: 'https', url: 'http://x.example/', timeoutSeconds: 0, foo: 1 },
      },
      ['batchSize', 'maxConcurrency', 'slug', 'target.url', 'target.timeoutSeconds', 'target.foo'],
    );
  });

  test('a body that is not an object is 400 at ""', async () => {
    for (const body of [[], 'text', 42, null]) {
      const before = await readSub(bob, subs.https);
      const res = await bob.patch(subPath(subs.https), {
        data: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      await expectError(res, 400, 'invalid_request', ['']);
      expect(await readSub(bob, subs.https)).toEqual(before);
    }
  });
});

test.describe('who may change which subscription', () => {
  test('cy (BasicAccess) may read but gets 403 access_denied on PATCH, and nothing changes', async ({ as }) => {
    const cy = await as('cy');
    const before = await readSub(cy, subs.https);
    await expectError(await cy.patch(subPath(subs.https), { data: { batchSize: 2 } }), 403, 'access_denied');
    expect(await readSub(cy, subs.https)).toEqual(before);
  });

  test('bob (QueuesEditor on Production only) gets 403 on Staging; ada may change Staging', async ({ as }) => {
    const before = await readSub(bob, subs.staging);
    await expectError(await bob.patch(subPath(subs.staging), { data: { batchSize: 2 } }), 403, 'access_denied');
    expect(await readSub(bob, subs.staging)).toEqual(before);
    const ada = await as('ada');
    try {
      const res = await ada.patch(subPath(subs.staging), { data: { maxConcurrency: 9 } });
      expect(res.status()).toBe(200);
      expect((await res.json()).maxConcurrency).toBe(9);
    } finally {
      await restoreSub(subs.staging);
    }
  });

  test('the deploy-bot key changes a Production subscription, gets 403 in Staging and 404 in Globex', async ({
    fixtures,
  }) => {
    const bot = await bearer(fixtures.keys.deployBot);
    try {
      const res = await bot.patch(subPath(subs.https), { data: { batchSize: 4 } });
      expect(res.status()).toBe(200);
      expect((await res.json()).batchSize).toBe(4);
      expect((await readSub(bob, subs.https)).batchSize).toBe(4);

      const staging = await readSub(bob, subs.staging);
      await expectError(await bot.patch(subPath(subs.staging), { data: { batchSize: 2 } }), 403, 'access_denied');
      expect(await readSub(bob, subs.staging)).toEqual(staging);

      await expectError(await bot.patch(subPath(subs.globex), { data: { batchSize: 2 } }), 404, 'not_found');
      await expectError(await bot.get(subPath(subs.globex)), 404, 'not_found');
    } finally {
      await bot.dispose();
      await restoreSub(subs.https);
    }
    const gil = await sessionFor('gil');
    expect(await readSub(gil, subs.globex)).toEqual(subs.globex);
    await gil.dispose();
  });
});

test.describe('order of checks (PRODUCT.md)', () => {
  test('403 access_denied comes before 400: cy with an invalid body', async ({ as }) => {
    const cy = await as('cy');
    await expectError(await cy.patch(subPath(subs.https), { data: { batchSize: 0 } }), 403, 'access_denied');
  });

  test('400 (body) comes before 404 (resource): an unknown subscription id with an invalid body is 400', async () => {
    const unknown = `${subsPath(demo.acme, demo.production)}/${UNKNOWN_ID}`;
    await expectError(await bob.patch(unknown, { data: { batchSize: 0 } }), 400, 'invalid_request', ['batchSize']);
    await expectError(await bob.patch(unknown, { data: { batchSize: 2 } }), 404, 'not_found');
    // The kind rule needs the subscription, so for an unknown one the 404 wins.
    await expectError(await bob.patch(unknown, { data: { target: { kind: 'workflow' } } }), 404, 'not_found');
  });

  test('a malformed subscription id is 404 before the body is read', async () => {
    await expectError(
      await bob.patch(`${subsPath(demo.acme, demo.production)}/not-a-uuid`, { data: { batchSize: 0 } }),
      404,
      'not_found',
    );
  });

  test('404 for another organization comes before 403 and 400', async ({ as }) => {
    const cy = await as('cy');
    await expectError(await cy.patch(subPath(subs.globex), { data: { batchSize: 0 } }), 404, 'not_found');
  });
});

test.describe('the caller’s permissions', () => {
  // What each policy holds is lib/permissions.ts (PRODUCT.md's table); this checks that the endpoint reports
  // exactly what the caller's bindings grant, in PERMISSIONS order.
  const granted = (...policies: string[]) => PERMISSIONS.filter((p) => policies.some((n) => POLICIES[n].includes(p)));
  const basic = granted('BasicAccess');
  const permissions = async (ctx: APIRequestContext, orgId: string, projectId?: string) => {
    const res = await ctx.get(`/v1/organizations/${orgId}/permissions`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as {
      organization: string[];
      projects: { projectId: string; permissions: string[] }[];
    };
    return projectId ? body.projects.find((p) => p.projectId === projectId)!.permissions : body.organization;
  };

  test('bob may update subscriptions on Production only; cy nowhere; the bot as its bindings say', async ({
    as,
    fixtures,
  }) => {
    const cy = await as('cy');
    expect(await permissions(bob, demo.acme)).toEqual(basic);
    expect(await permissions(bob, demo.acme, demo.staging)).toEqual(basic);
    expect(await permissions(bob, demo.acme, demo.production)).toEqual(
      granted('BasicAccess', 'QueuesEditor', 'SilencesEditor'),
    );
    expect(await permissions(cy, demo.acme, demo.production)).toEqual(basic);
    const bot = await bearer(fixtures.keys.deployBot);
    expect(await permissions(bot, demo.acme, demo.production)).toContain('queues.subscriptions.update');
    expect(await permissions(bot, demo.acme, demo.staging)).not.toContain('queues.subscriptions.update');
    await bot.dispose();
    const ada = await as('ada');
    expect(await permissions(ada, demo.acme, demo.staging)).toContain('members.delete');
  });

  test('another organization is 404, and only the organization’s own projects are listed', async ({ as }) => {
    const gil = await as('gil');
    await expectError(await gil.get(`/v1/organizations/${demo.acme}/permissions`), 404, 'not_found');
    const own = (await (await bob.get(`/v1/organizations/${demo.acme}/permissions`)).json()) as {
      projects: { projectId: string }[];
    };
    expect(own.projects.map((p) => p.projectId)).not.toContain(demo.globexProject);
  });
});

test('the OpenAPI document lists the subscription operations and the permissions endpoint', async ({ request }) => {
  const doc = (await (await request.get('/v1/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const path = '/v1/organizations/{orgId}/projects/{projectId}/subscriptions';
  expect(Object.keys(doc.paths[path]).sort()).toEqual(['get', 'post']);
  expect(Object.keys(doc.paths[`${path}/{subscriptionId}`]).sort()).toEqual(['delete', 'get', 'patch']);
  expect(Object.keys(doc.paths['/v1/organizations/{orgId}/permissions'])).toEqual(['get']);
});

test.describe("the organization's subscription health (the overview's figures)", () => {
  type Health = {
    projectId: string;
    subscriptions: number;
    failing: number;
    deadLetters: number;
    deadLetterSubscription: { id: string; slug: string } | null;
  };
  const healthPath = () => `/v1/organizations/${demo.acme}/subscription-health`;
  const readHealth = async (ctx: APIRequestContext) => {
    const res = await ctx.get(healthPath());
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { items: Health[] }).items;
  };

  /** The same figures counted from the project's list and each subscription's dead letters. */
  async function counted(ctx: APIRequestContext, projectId: string) {
    const items = await listSubs(ctx, demo.acme, projectId);
    const dead = await Promise.all(
      items.map(async (s) => {
        const res = await ctx.get(`${subPath(s)}/dead-letters?limit=100`);
        expect(res.status()).toBe(200);
        return ((await res.json()) as { items: unknown[] }).items.length;
      }),
    );
    return {
      subscriptions: items.length,
      failing: items.filter((s) => s.status.health === 'failing').length,
      deadLetters: dead.reduce((a, b) => a + b, 0),
    };
  }

  test('each project: its failing subscriptions and dead letters, as its lists count them', async () => {
    for (const projectId of [demo.production, demo.staging]) {
      // Deliveries run beside the test and may turn a subscription's health: the two counts agree once they rest.
      await expect
        .poll(async () => {
          const item = (await readHealth(bob)).find((h) => h.projectId === projectId);
          const figures = item && {
            subscriptions: item.subscriptions,
            failing: item.failing,
            deadLetters: item.deadLetters,
          };
          return JSON.stringify(figures) === JSON.stringify(await counted(bob, projectId));
        })
        .toBe(true);
    }
    // Where dead letters are: the subscription holding the most, in its project.
    for (const item of await readHealth(bob)) {
      if (item.deadLetters === 0) expect(item.deadLetterSubscription).toBeNull();
      else {
        const res = await bob.get(`${subsPath(demo.acme, item.projectId)}/${item.deadLetterSubscription!.id}`);
        expect(((await res.json()) as Sub).slug).toBe(item.deadLetterSubscription!.slug);
      }
    }
  });

  test('only the projects whose subscriptions the caller may list; another organization is 404', async ({ as }) => {
    const ada = await as('ada');
    const narrowed = async (body: Record<string, unknown>) => {
      const res = await ada.post(`/v1/organizations/${demo.acme}/api-keys`, {
        data: { name: `health ${Date.now()}`, expiresInDays: 1, ...body },
      });
      expect(res.status(), await res.text()).toBe(201);
      return bearer(((await res.json()) as { secret: string }).secret);
    };
    // A key narrowed to projects cannot read at organization level at all (403, as for every such operation).
    const lists = await narrowed({ permissions: ['projects.get', 'queues.subscriptions.list'] });
    expect((await readHealth(lists)).map((h) => h.projectId)).toEqual(
      expect.arrayContaining([demo.production, demo.staging]),
    );
    const noList = await narrowed({ permissions: ['projects.get'] });
    expect(await readHealth(noList)).toEqual([]);
    const gil = await as('gil');
    await expectError(await gil.get(healthPath()), 404, 'not_found');
    await lists.dispose();
    await noList.dispose();
  });
});
