import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { sha256Hex, displayPrefix, generateApiKey } from '../../lib/auth/api-key-format';
import { E2E } from '../support/env';
import { memberSeeder } from '../support/principals';
import { spawnServer, type Spawned } from '../support/spawn-server';

const unique = (what: string) => `${what} ${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

// Behind a proxy, the address is the one the proxy appended: the last X-Forwarded-For entry, never the first.
test.describe('allowedIps behind a trusted proxy', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let proxied: Spawned;
  let dir: string | null = null;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const database: Record<string, string> = process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL }
      : { DATA_DIR: (dir = mkdtempSync(path.join(os.tmpdir(), 'svc-keyscope-'))), SEED_DEMO: '1' };
    proxied = await spawnServer(E2E.port + 70, {
      ...database,
      TRUST_PROXY: '1',
      RATE_LIMIT_NAMESPACE: `keyscope-${Date.now()}-`,
    });
  });
  test.afterAll(async () => {
    await proxied?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('IPv4, IPv6 and mapped entries match; a forged leftmost entry does not pass', async () => {
    const ada = await sessionFor('ada', proxied.url);
    const orgs = (await (await ada.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
    const acme = orgs.items.find((o) => o.name === 'Acme')!.id;
    const res = await ada.post(`/v1/organizations/${acme}/api-keys`, {
      data: { name: unique('behind proxy'), expiresInDays: 1, allowedIps: ['203.0.113.0/24', '2001:db8::/32'] },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { secret } = (await res.json()) as { secret: string };
    const key = await bearer(secret, proxied.url);
    const from = async (forwardedFor: string) => {
      const answer = await key.get('/v1/api-key', { headers: { 'X-Forwarded-For': forwardedFor } });
      const body = (await answer.json()) as { clientIp?: string; error?: { code: string } };
      return answer.status() === 200 ? `200 ${body.clientIp}` : `${answer.status()} ${body.error?.code}`;
    };
    expect(await from('203.0.113.7')).toBe('200 203.0.113.7');
    expect(await from('198.51.100.1, 203.0.113.8')).toBe('200 203.0.113.8');
    expect(await from('2001:db8:5::1')).toBe('200 2001:db8:5::1');
    expect(await from('::ffff:203.0.113.9')).toBe('200 ::ffff:203.0.113.9');
    // The client wrote an allowed address first; the proxy appended the real one.
    expect(await from('203.0.113.7, 198.51.100.1')).toBe('403 ip_not_allowed');
    expect(await from('2001:db8::1, 2001:db9::1')).toBe('403 ip_not_allowed');
    // No header at all: the connection's own address (127.0.0.1) is outside the ranges.
    expect((await key.get('/v1/api-key')).status()).toBe(403);
    await Promise.all([key.dispose(), ada.dispose()]);
  });
});

// The owner's permissions as they stand now: a binding removed is gone from the key on the next request elsewhere.
test.describe('restricted keys across two instances on one PostgreSQL', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let other: Spawned;
  let pool: pg.Pool;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    other = await spawnServer(E2E.port + 71, {
      DATABASE_URL: process.env.DATABASE_URL!,
      RATE_LIMIT_NAMESPACE: `keyscope-two-${Date.now()}-`,
    });
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  });
  test.afterAll(async () => {
    await pool?.end();
    await other?.stop();
  });

  test('the owner losing a binding removes it from the key on the next request on another instance', async ({
    demo,
  }) => {
    const seeder = memberSeeder(process.env.DATABASE_URL!);
    const member = await seeder.member(demo.acme, unique('owner'));
    await seeder.close();
    // A key restricted to reading silences in Production, made as POST …/api-keys stores one.
    const secret = generateApiKey();
    const { rows: inserted } = await pool.query<{ id: string }>(
      `insert into api_keys (organization_id, name, prefix, secret_hash, owner_type, owner_id, permissions, project_ids)
       values ($1, 'restricted', $2, $3, 'user', $4, $5, $6) returning id`,
      [
        demo.acme,
        displayPrefix(secret),
        sha256Hex(secret),
        member.userId,
        JSON.stringify(['obs.silences.list', 'queues.subscriptions.list']),
        JSON.stringify([demo.production]),
      ],
    );
    const keyId = inserted[0].id;
    const onA = await bearer(secret);
    const onB = await bearer(secret, other.url);
    const silences = `/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences`;
    expect((await onA.get(silences)).status()).toBe(200);
    expect((await onB.get(silences)).status()).toBe(200); // cached on B now
    const members = await onB.get(`/v1/organizations/${demo.acme}/members`);
    expect((await members.json()).error.code).toBe('access_denied');

    // As any change that takes access away: the binding goes and the epoch moves, in one transaction, through A's database.
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(`delete from policy_bindings where principal_type = 'user' and principal_id = $1`, [
        member.userId,
      ]);
      await client.query('update auth_epoch set epoch = epoch + 1 where id = 1');
      await client.query('commit');
    } finally {
      client.release();
    }
    const refused = await onB.get(silences);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.code).toBe('access_denied');
    // Its page says so: the key names the permission, its owner no longer holds it.
    const ada = await sessionFor('ada', other.url);
    const access = await ada.get(`/v1/organizations/${demo.acme}/api-keys/${keyId}/access`);
    expect(access.status(), await access.text()).toBe(200);
    expect((await access.json()).permissions).toEqual([
      { permission: 'obs.silences.list', projectId: demo.production, ownerHolds: false },
      { permission: 'queues.subscriptions.list', projectId: demo.production, ownerHolds: false },
    ]);
    await ada.dispose();
    // The key's restriction still names the permission: nothing was copied onto it, nothing comes back from it.
    const { rows } = await pool.query(`select permissions from api_keys where secret_hash = $1`, [sha256Hex(secret)]);
    expect(rows[0].permissions).toEqual(['obs.silences.list', 'queues.subscriptions.list']);
    await Promise.all([onA.dispose(), onB.dispose()]);
  });
});
