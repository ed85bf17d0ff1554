import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, mintedSessionCookie, sessionFor, test } from '../fixtures';
import { postCredentials } from '../support/credentials';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { blackHoleableProxy } from '../support/tcp-proxy';
import { generateApiKey } from '../../lib/auth/api-key-format';

// Each request is given at most 5 s: an answer later than that fails the test.
const within5s = () => ({ signal: AbortSignal.timeout(5_000) });

/** One request of each route family, each given at most 5 s. */
async function everyFamily(url: string) {
  return {
    v1: await fetch(`${url}/v1/organizations`, {
      headers: { authorization: `Bearer ${generateApiKey()}` },
      ...within5s(),
    }),
    oauth: await fetch(`${url}/oauth/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'svc-cli' }),
      ...within5s(),
    }),
    scim: await fetch(`${url}/scim/v2/Users`, {
      headers: { authorization: 'Bearer scim_0123456789abcdef0123456789abcdef' },
      ...within5s(),
    }),
  };
}

async function expectUnavailable(url: string) {
  const families = await everyFamily(url);
  for (const [name, res] of Object.entries(families)) {
    expect(res.status, name).toBe(503);
    expect(Number(res.headers.get('retry-after')), name).toBeGreaterThan(0);
  }
  expect(((await families.v1.json()) as { error: { code: string } }).error.code).toBe('unavailable');
  expect(((await families.oauth.json()) as { error: string }).error).toBe('temporarily_unavailable');
  // A console page degrades to "try again" instead of a 500.
  const page = await fetch(`${url}/orgs`, {
    headers: { cookie: await mintedSessionCookie('00000000-0000-4000-8000-000000000000') },
    redirect: 'manual',
    ...within5s(),
  });
  expect(page.status).toBeLessThan(500);
  expect(page.headers.get('location')).toContain('/unavailable');
}

async function expectSignInUnavailable(url: string) {
  const res = await postCredentials(
    url,
    { email: 'ada@acme.test', password: E2E.password },
    { headers: { origin: url }, signal: () => within5s().signal },
  );
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

async function healthy(url: string): Promise<number> {
  return fetch(`${url}/v1/health`).then(
    (r) => r.status,
    () => 0,
  );
}

test.describe('a database that refuses or hangs', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL)');
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://x/y');
  const urlOf = (name: string) => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = () => new pg.Client({ connectionString: urlOf('postgres') });
  const database = `${base.pathname.slice(1)}_down`;

  let client: pg.Client;
  test.beforeEach(async () => {
    client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.query(`create database ${database}`);
  });
  test.afterEach(async () => {
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });

  /** While `down` holds, every family answers 503; after `heal`, the same process serves again. */
  async function downThenHealed(server: Spawned, down: () => Promise<void>, heal: () => Promise<void>) {
    try {
      await down();
      await expectUnavailable(server.url);
      await expectSignInUnavailable(server.url);
      await heal();
      await expect.poll(() => healthy(server.url), { timeout: 15_000 }).toBe(200);
      const ada = await sessionFor('ada', server.url);
      expect((await ada.get('/v1/organizations')).status()).toBe(200);
      await ada.dispose();
    } finally {
      await server.stop();
    }
  }

  test('refusing connections (ALLOW_CONNECTIONS false, backends terminated): 503 on every family, then recovery', async () => {
    const server = await spawnServer(E2E.port + 24, { DATABASE_URL: urlOf(database), SEED_DEMO: '1' });
    await downThenHealed(
      server,
      async () => {
        await client.query(`alter database ${database} allow_connections false`);
        await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database]);
      },
      async () => {
        await client.query(`alter database ${database} allow_connections true`);
      },
    );
  });

  // A statement on a connection gone silent waits out DATABASE_QUERY_TIMEOUT_MS (4 s by default) before the 503;
  // at 2 s here, each answer's 5 s leaves 3 s for a loaded machine (CI's two cores run three suites at once, and
  // the default's 1 s of margin was once not enough).
  test('black-holed: 503 within 5 s on every family, and recovery without a restart', async () => {
    const proxy = await blackHoleableProxy(E2E.port + 30, { host: base.hostname, port: Number(base.port || 5432) });
    try {
      const server = await spawnServer(E2E.port + 25, {
        DATABASE_URL: proxy.url(database),
        DATABASE_QUERY_TIMEOUT_MS: '2000',
        SEED_DEMO: '1',
      });
      await downThenHealed(
        server,
        async () => proxy.holeIn(),
        async () => proxy.restore(),
      );
    } finally {
      await proxy.close();
    }
  });
});

test.describe('the embedded database after kill -9', () => {
  test.skip(!!process.env.DATABASE_URL, 'PGlite only');
  test.describe.configure({ timeout: 120_000 });

  test('a second live process is refused at once and the first keeps serving; a restart after a crash succeeds', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-kill9-'));
    const env = { DATA_DIR: dir };
    const first = await spawnServer(E2E.port + 26, env);
    try {
      await expect(spawnServer(E2E.port + 27, env)).rejects.toThrow(/in use by another process/);
      expect(await healthy(first.url)).toBe(200);

      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      const restarted = await spawnServer(E2E.port + 27, env);
      expect(await healthy(restarted.url)).toBe(200);
      await restarted.stop();
    } finally {
      await first.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe('per-address limits, forwarded headers and HSTS', () => {
  test.skip(!!process.env.DATABASE_URL, 'PGlite only: one run of these is enough');
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let direct: Spawned;
  let proxied: Spawned;
  const dirs: string[] = [];
  const limits = { AUTH_FAILURE_RATE_LIMIT: '20', SEED_DEMO: '1' };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    for (let i = 0; i < 2; i++) dirs.push(mkdtempSync(path.join(os.tmpdir(), 'svc-limits-')));
    [direct, proxied] = await Promise.all([
      spawnServer(E2E.port + 28, { ...limits, DATA_DIR: dirs[0], APP_URL: 'https://console.example.test' }),
      spawnServer(E2E.port + 29, { ...limits, DATA_DIR: dirs[1], TRUST_PROXY: 'true' }),
    ]);
  });
  test.afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const badBearers = async (url: string, forwardedFor: (i: number) => string, n = 30) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${url}/v1/organizations`, {
        headers: { authorization: `Bearer ${generateApiKey()}`, 'x-forwarded-for': forwardedFor(i) },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    return statuses;
  };

  test('failed authentication is limited per connection address, whatever X-Forwarded-For says', async () => {
    const ada = await sessionFor('ada', direct.url);
    const statuses = await badBearers(direct.url, (i) => `198.51.100.${i}`);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // SCIM's bad tokens count against the same address.
    const scim = await fetch(`${direct.url}/scim/v2/Users`, { headers: { authorization: 'Bearer scim_nope' } });
    expect(scim.status).toBe(429);
    // A valid principal behind the same address is not slowed.
    expect((await ada.get('/v1/organizations')).status()).toBe(200);
    await ada.dispose();
  });

  test('with TRUST_PROXY the last X-Forwarded-For entry (the one the proxy appended) is the client', async () => {
    expect(new Set(await badBearers(proxied.url, (i) => `10.0.0.1, 198.51.100.${i}`))).toEqual(new Set([401]));
    // A client writing a new first entry each time is still one address to the limit.
    const same = await badBearers(proxied.url, (i) => `192.0.2.${i}, 203.0.113.5`, 25);
    expect(same.slice(20).every((s) => s === 429)).toBe(true);
  });

  test('without TRUST_PROXY, X-Forwarded-Host does not make another origin acceptable', async ({ demo }) => {
    const ada = await sessionFor('ada', direct.url);
    const orgs = (await (await ada.get('/v1/organizations')).json()) as { items: { id: string }[] };
    const write = (headers: Record<string, string>) =>
      ada.post(`/v1/organizations/${orgs.items[0]?.id ?? demo.acme}/api-keys`, { data: { name: 'origin' }, headers });
    const refused = await write({ Origin: 'http://evil.test', 'X-Forwarded-Host': 'evil.test' });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden_origin');
    expect((await write({ Origin: direct.url })).status()).toBe(201);
    await ada.dispose();
  });

  test('an https public origin gets Strict-Transport-Security; an http one does not', async () => {
    for (const route of ['/v1/health', '/login']) {
      expect((await fetch(`${direct.url}${route}`)).headers.get('strict-transport-security')).toContain('max-age=');
      expect((await fetch(`${proxied.url}${route}`)).headers.get('strict-transport-security')).toBeNull();
    }
  });
});
