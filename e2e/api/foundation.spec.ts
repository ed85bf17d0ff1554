import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, expectError, test } from '../fixtures';
import { dataDir, E2E } from '../support/env';
import { startApp } from '../support/spawn-server';

/** Runs `npm start`'s script with extra env; resolves with its exit code and output, or kills it after `ms`. */
function start(
  env: Record<string, string>,
  ms: number,
): Promise<{ code: number | null; output: string; kill: () => void }> {
  const { child, output } = startApp(env);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ code: null, output: output(), kill: () => child.kill('SIGTERM') }), ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output(), kill: () => {} });
    });
  });
}

test('a second process on the same DATA_DIR exits at once with a message; the first keeps serving, nothing lost', async ({
  as,
  demo,
}) => {
  test.skip(!!process.env.DATABASE_URL, 'the lock guards the embedded database only');
  const ada = await as('ada');
  const before = await (await ada.get(`/v1/organizations/${demo.acme}/projects`)).json();
  const second = await start({ DATA_DIR: dataDir, PORT: String(E2E.port + 7) }, 30_000);
  second.kill();
  expect(second.code).toBe(1);
  expect(second.output).toContain('is in use by another process');
  expect((await ada.get('/v1/health')).status()).toBe(200);
  expect(await (await ada.get(`/v1/organizations/${demo.acme}/projects`)).json()).toEqual(before);
});

test('an unreachable database: health and the API answer 503 unavailable with Retry-After, liveness still 200', async ({
  fixtures,
}) => {
  const port = E2E.port + 8;
  const server = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PORT: String(port) }, 6_000);
  try {
    expect(server.code).toBeNull(); // still running: it serves 503s rather than dying
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/v1/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('5');
    expect((await health.json()).error.code).toBe('unavailable');
    // Liveness asks no database: the process is alive, only not ready.
    const live = await fetch(`${base}/v1/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const api = await fetch(`${base}/v1/organizations`, {
      headers: { Authorization: `Bearer ${fixtures.keys.deployBot}` },
    });
    expect(api.status).toBe(503);
    expect(api.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await api.json()).error.code).toBe('unavailable');
  } finally {
    server.kill();
  }
});

test('on PostgreSQL, start refuses at once without the secrets every instance must share, naming each', async () => {
  const cases: { env: Record<string, string>; names: RegExp }[] = [
    { env: { ENCRYPTION_KEY: '' }, names: /^ENCRYPTION_KEY is not set/m },
    { env: { NEXTAUTH_SECRET: '' }, names: /^NEXTAUTH_SECRET is not set/m },
    { env: { ENCRYPTION_KEY: '', NEXTAUTH_SECRET: '' }, names: /^NEXTAUTH_SECRET and ENCRYPTION_KEY are not set/m },
  ];
  for (const { env, names } of cases) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-unshared-'));
    try {
      const server = await start(
        { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PORT: String(E2E.port + 9), DATA_DIR: dir, ...env },
        20_000,
      );
      server.kill();
      expect(server.code, server.output).toBe(1);
      expect(server.output).toMatch(names);
      expect(server.output).toContain('the same on every instance');
      // Nothing was generated for it to fall back on.
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('the OpenAPI document is served and names the error envelope', async ({ request }) => {
  const res = await request.get('/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.paths['/v1/organizations/{orgId}/projects'].get).toBeDefined();
  expect(doc.components.schemas.Error).toBeDefined();
});

test('a path no operation has is a 404 naming /v1/openapi.json and the console’s API reference', async ({
  request,
}) => {
  for (const [method, path] of [
    ['GET', '/v1/no-such-thing'],
    ['POST', '/v1/organizations/00000000-0000-4000-8000-000000000000/no-such-thing'],
    ['DELETE', '/v1/openapi/no-such-document'],
  ] as const) {
    const res = await request.fetch(path, { method });
    expect(res.status(), `${method} ${path}`).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        code: 'not_found',
        message: `No API operation at ${path}; GET /v1/openapi.json lists them, and the console shows them at /api-reference.`,
      },
    });
  }
});

test('the error envelope answers unknown /v1 JSON errors too: a bad limit is one issue at its path', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  await expectError(await ada.get(`/v1/organizations/${demo.acme}/members?limit=abc`), 400, 'invalid_request', [
    'limit',
  ]);
});

// `npm run build` marks its browser chunks (scripts/compile-hints.mjs) so Chromium compiles them off the main thread:
// without the mark, a page's start compiled React, Next and the console function by function in the task that
// hydrates it (docs/benchmarks-console.md). A console page's and the sign-in page's scripts all carry it.
test('every script a page loads carries V8’s compile hint', async ({ request, as, demo }) => {
  const ada = await as('ada');
  const pages = [await request.get('/login'), await ada.get(`/orgs/${demo.acme}/api-keys`)];
  const scripts = new Set<string>();
  for (const page of pages) {
    expect(page.status()).toBe(200);
    for (const [, src] of (await page.text()).matchAll(/<script[^>]+src="([^"]+\.js)"/g)) scripts.add(src);
  }
  expect(scripts.size).toBeGreaterThan(5);
  for (const src of scripts) {
    const text = await (await request.get(src)).text();
    expect(text.startsWith('//# allFunctionsCalledOnLoad\n'), src).toBe(true);
  }
});
