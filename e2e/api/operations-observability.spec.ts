import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { generateApiKey } from '../../lib/auth/api-key-format';

const METRICS_TOKEN = 'metrics-token-for-e2e-0123456789';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Every label value of every sample in a Prometheus text exposition. */
const labelValues = (text: string) => [...text.matchAll(/[{,]\w+="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
const sample = (text: string, name: string, labels: string) =>
  Number(
    new RegExp(`^${name}\\{${labels.replace(/[{}()|.*+?^$[\]\\]/g, '\\$&')}\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
  );

test.describe('metrics and request logs', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  let server: Spawned;
  let dir: string;
  let admin: APIRequestContext;
  let orgId: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dir = mkdtempSync(path.join(os.tmpdir(), 'svc-obs-'));
    server = await spawnServer(E2E.port + 40, {
      DATA_DIR: dir,
      SEED_DEMO: '1',
      METRICS_TOKEN,
      AUTH_FAILURE_RATE_LIMIT: '3',
      RATE_LIMIT_NAMESPACE: `obs-${Date.now()}-`,
    });
    admin = await sessionFor('ada', server.url);
    const orgs = (await (await admin.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
    orgId = orgs.items.find((o) => o.name === 'Acme')!.id;
  });
  test.afterAll(async () => {
    await admin?.dispose();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const scrape = async (authorization?: string) =>
    fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });

  test('/metrics is 404 without METRICS_TOKEN, 401 without or with a wrong token, Prometheus text with it', async ({
    request,
  }) => {
    expect((await request.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status()).toBe(
      404,
    );
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${METRICS_TOKEN}`, `Bearer ${METRICS_TOKEN}x`]) {
      const res = await scrape(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain('svc_');
    }
    const res = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/^svc_build_info\{version="\d+\.\d+\.\d+"\} 1$/m);
    expect(text).toMatch(/^svc_process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^svc_nodejs_eventloop_lag_seconds \d/m);
    if (process.env.DATABASE_URL) expect(text).toMatch(/^svc_db_pool_connections\{pool="svc",state="total"\} \d/m);
    else expect(text).toMatch(/^svc_db_embedded_statements_in_flight \d/m);
    expect(text).toMatch(/^svc_db_up\{kind="(pglite|postgres)"\} 1$/m);
  });

  test('requests are counted by method, route template and status, and no label carries an id', async () => {
    const { secret, apiKey } = await createKey(admin, orgId, { name: 'metrics probe' });
    const key = await bearer(secret, server.url);
    try {
      for (let i = 0; i < 3; i++) expect((await key.get(`/v1/organizations/${orgId}/api-keys`)).status()).toBe(200);
      expect((await key.get(`/v1/organizations/${orgId}/api-keys/${apiKey.id}/usage`)).status()).toBe(200);
      expect((await key.get(`/v1/organizations/${crypto.randomUUID()}/api-keys`)).status()).toBe(404);
    } finally {
      await key.dispose();
    }
    const text = await (await scrape(`Bearer ${METRICS_TOKEN}`)).text();
    const count = (route: string, status: number, method = 'GET') =>
      sample(text, 'svc_http_request_duration_seconds_count', `method="${method}",route="${route}",status="${status}"`);
    expect(count('/v1/organizations/{orgId}/api-keys', 200)).toBeGreaterThanOrEqual(3);
    expect(count('/v1/organizations/{orgId}/api-keys/{keyId}/usage', 200)).toBeGreaterThanOrEqual(1);
    expect(count('/v1/organizations/{orgId}/api-keys', 404)).toBeGreaterThanOrEqual(1);
    expect(count('/v1/organizations/{orgId}/api-keys', 201, 'POST')).toBeGreaterThanOrEqual(1);
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(20);
    for (const value of values) {
      expect(value).not.toMatch(UUID);
      expect(value).not.toMatch(/svc_[A-Za-z0-9]{8}|req_[0-9a-f]{8}|@/);
    }
  });

  test('rate-limit refusals and audit events written are counted', async () => {
    const before = await (await scrape(`Bearer ${METRICS_TOKEN}`)).text();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/v1/organizations`, {
        headers: { authorization: `Bearer ${generateApiKey()}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    await createKey(admin, orgId, { name: 'audited' });
    const after = await (await scrape(`Bearer ${METRICS_TOKEN}`)).text();
    const delta = (name: string, labels: string) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('svc_rate_limit_refusals_total', 'limiter="authfail"')).toBe(statuses.filter((s) => s === 429).length);
    expect(delta('svc_audit_events_written_total', 'action="api_key.created"')).toBe(1);
  });

  test('one JSON line per request with its id, method, route template, status and duration; no secret anywhere', async () => {
    const { secret } = await createKey(admin, orgId, { name: 'log probe' });
    const res = await fetch(`${server.url}/v1/organizations/${orgId}/api-keys?limit=1`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id')!;
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = lines.filter((line) => line.requestId === requestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: '/v1/organizations/{orgId}/api-keys',
      status: 200,
      level: 30,
    });
    expect(typeof mine[0].durationMs).toBe('number');
    expect(typeof mine[0].time).toBe('string');

    // The Alertmanager family's lines name their method and path template too, and so does its 404 for a path it
    // does not have.
    const projects = (await (await admin.get(`/v1/organizations/${orgId}/projects`)).json()) as {
      items: { id: string; alertingEnabled: boolean }[];
    };
    const alerting = projects.items.find((p) => p.alertingEnabled)!.id;
    const lineOf = async (url: string, method = 'GET') => {
      const answer = await fetch(url, { method, headers: { authorization: `Bearer ${secret}` } });
      const id = answer.headers.get('x-request-id')!;
      await expect.poll(() => server.output().includes(id)).toBe(true);
      const found = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes(id))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      return { status: answer.status, line: found.find((l) => l.msg === 'request') };
    };
    const am = `${server.url}/alertmanager/${orgId}/${alerting}/api/v2`;
    const status = await lineOf(`${am}/status`);
    expect(status.status).toBe(200);
    expect(status.line).toMatchObject({ method: 'GET', route: '/alertmanager/{orgId}/{projectId}/api/v2/status' });
    const refused = await lineOf(`${am}/status`, 'DELETE');
    expect(refused.status).toBe(405);
    expect(refused.line).toMatchObject({
      method: 'DELETE',
      route: '/alertmanager/{orgId}/{projectId}/api/v2/status',
    });
    const unknown = await lineOf(`${am}/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(unknown.line).toMatchObject({ method: 'GET', route: 'alertmanager' });
    const output = server.output();
    expect(output).not.toContain(secret);
    expect(output).not.toContain(secret.slice(12));
    expect(output).not.toContain(E2E.password);
    expect(output).not.toContain('next-auth.session-token');
    expect(output).not.toContain(METRICS_TOKEN);
  });
});
