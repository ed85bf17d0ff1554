import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test, type Demo } from '../fixtures';
import { createKey } from '../support/api-keys';
import { amPath, runLabel, type GettableAlert } from '../support/alerts';
import { unique } from '../support/amtool';

// karma's and Grafana's requests to an Alertmanager, as they send them (../shared/research/alerts.md, section 4):
// HTTP Basic with the key as password (both data sources' configuration), no state parameters, and Grafana's
// encoding of a matcher (the value always quoted, the name only when it must be). Globex's project: no other spec's
// alerts or silences there.
const base = (demo: Demo) => amPath(demo.globex, demo.globexProject);

async function basicClient(
  ctx: APIRequestContext,
  demo: Demo,
  userAgent: string,
): Promise<(path: string) => Promise<unknown>> {
  const { secret } = await createKey(ctx, demo.globex, { name: unique(userAgent), expiresInDays: 1 });
  const headers = {
    authorization: `Basic ${Buffer.from(`${userAgent}:${secret}`).toString('base64')}`,
    accept: 'application/json',
    'user-agent': userAgent,
  };
  return async (path: string) => {
    const res = await ctx.get(`${base(demo)}${path}`, { headers });
    expect(res.status(), await res.text()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/json');
    return res.json();
  };
}

/** Grafana's `encodeMatcher`: the name quoted only when it holds a special character, the value always. */
const grafanaFilter = (name: string, op: string, value: string) => {
  const quotedName = /[{}!=~,\\"'\s]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : name;
  return `filter=${encodeURIComponent(`${quotedName}${op}"${value.replace(/["\\]/g, '\\$&')}"`)}`;
};

test('karma: /alerts/groups with no parameters carries every alert with its silencedBy; per-silence counts follow', async ({
  as,
  demo,
}) => {
  const gil = await as('gil');
  const get = await basicClient(gil, demo, 'karma/v0.120');
  const run = runLabel();
  const { secret } = await createKey(gil, demo.globex, { name: unique('prom'), permissions: ['obs.alerts.create'] });
  const post = await gil.post(`${base(demo)}/alerts`, {
    headers: { authorization: `Bearer ${secret}` },
    data: ['Disk', 'Cpu', 'Mem'].map((alertname) => ({ labels: { alertname, run, team: 'db' } })),
  });
  expect(post.status(), await post.text()).toBe(200);
  const silence = await gil.post(`/v1/organizations/${demo.globex}/projects/${demo.globexProject}/obs/silences`, {
    data: {
      comment: 'karma counts',
      matchers: [
        { label: 'run', op: '=', value: run },
        { label: 'alertname', op: '=~', value: 'Disk|Cpu' },
      ],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(silence.status()).toBe(201);
  const silenceId = ((await silence.json()) as { id: string }).id;

  const groups = (await get('/alerts/groups')) as {
    labels: object;
    receiver: { name: string };
    alerts: GettableAlert[];
  }[];
  expect(groups).toHaveLength(1);
  expect(groups[0]).toMatchObject({ labels: {}, receiver: { name: 'project' } });
  const ours = groups[0].alerts.filter((a) => a.labels.run === run);
  expect(ours.map((a) => [a.labels.alertname, a.status.state, a.status.silencedBy]).sort()).toEqual([
    ['Cpu', 'suppressed', [silenceId]],
    ['Disk', 'suppressed', [silenceId]],
    ['Mem', 'active', []],
  ]);
  // karma's silence browser: alerts whose silencedBy holds the silence.
  expect(ours.filter((a) => a.status.silencedBy.includes(silenceId))).toHaveLength(2);
  // The silences karma pulls beside the groups.
  const silences = (await get('/silences')) as { id: string; status: { state: string } }[];
  expect(silences.find((s) => s.id === silenceId)?.status.state).toBe('active');
});

test('Grafana: the preview asks /alerts?filter=… as encodeMatcher writes it; the silences table counts from silenced=true&active=true&inhibited=true', async ({
  as,
  demo,
}) => {
  const gil = await as('gil');
  const get = await basicClient(gil, demo, 'Grafana/12.1.0');
  const run = runLabel();
  const { secret } = await createKey(gil, demo.globex, { name: unique('prom'), permissions: ['obs.alerts.create'] });
  const post = await gil.post(`${base(demo)}/alerts`, {
    headers: { authorization: `Bearer ${secret}` },
    data: [
      { labels: { alertname: 'Latency', run, instance: 'host-1:9100', msg: 'say "hi" \\o/' } },
      { labels: { alertname: 'Latency', run, instance: 'host-2:9100' } },
      { labels: { alertname: 'Errors', run, instance: 'host-1:9100' } },
    ],
  });
  expect(post.status(), await post.text()).toBe(200);

  // "Affected alert instances": live while typing, no state parameters, so firing and silenced both listed.
  const preview = async (...filters: string[]) =>
    ((await get(`/alerts?${[grafanaFilter('run', '=', run), ...filters].join('&')}`)) as GettableAlert[])
      .map((a) => `${a.labels.alertname} ${a.labels.instance}`)
      .sort();
  expect(await preview(grafanaFilter('alertname', '=', 'Latency'))).toEqual([
    'Latency host-1:9100',
    'Latency host-2:9100',
  ]);
  expect(await preview(grafanaFilter('instance', '=~', 'host-1:.*'))).toEqual([
    'Errors host-1:9100',
    'Latency host-1:9100',
  ]);
  expect(await preview(grafanaFilter('alertname', '!=', 'Latency'))).toEqual(['Errors host-1:9100']);
  expect(await preview(grafanaFilter('msg', '=', 'say "hi" \\o/'))).toEqual(['Latency host-1:9100']);

  const silence = await gil.post(`/v1/organizations/${demo.globex}/projects/${demo.globexProject}/obs/silences`, {
    data: {
      comment: 'grafana counts',
      matchers: [
        { label: 'run', op: '=', value: run },
        { label: 'alertname', op: '=', value: 'Latency' },
      ],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(silence.status()).toBe(201);
  const silenceId = ((await silence.json()) as { id: string }).id;
  // Silenced alerts stay in the preview (Grafana shows their state).
  expect(await preview(grafanaFilter('alertname', '=', 'Latency'))).toHaveLength(2);
  // The silences table's "Alerts" column: alerts whose silencedBy holds the silence, polled every 20 s.
  const all = (await get('/alerts?silenced=true&active=true&inhibited=true')) as GettableAlert[];
  expect(
    all
      .filter((a) => a.status.silencedBy.includes(silenceId))
      .map((a) => a.labels.instance)
      .sort(),
  ).toEqual(['host-1:9100', 'host-2:9100']);
  const active = (await get(`/alerts?silenced=false&${grafanaFilter('run', '=', run)}`)) as GettableAlert[];
  expect(active.map((a) => a.labels.alertname)).toEqual(['Errors']);
});

test("refusals are counted for the project's Alerts page: how many, in how many posts, the latest reason", async ({
  as,
  demo,
}) => {
  const gil = await as('gil');
  const path = `/v1/organizations/${demo.globex}/projects/${demo.globexProject}/obs/alerts/refusals`;
  type Refusals = {
    lastPostAt: string | null;
    alerts: number;
    batches: number;
    latest: { at: string; refused: number; reason: string }[];
  };
  const before = (await (await gil.get(path)).json()) as Refusals;
  const posted = Date.now();
  const { secret } = await createKey(gil, demo.globex, { name: unique('prom'), permissions: ['obs.alerts.create'] });
  const run = runLabel();
  const post = await gil.post(`${base(demo)}/alerts`, {
    headers: { authorization: `Bearer ${secret}` },
    data: [
      { labels: { alertname: 'Fine', run } },
      { labels: { alertname: 'Bad', run, 'bad-name': 'x' } },
      { labels: { alertname: 'Worse', run, '0digit': 'x' } },
    ],
  });
  expect(post.status()).toBe(400);
  const res = await gil.get(path);
  expect(res.status()).toBe(200);
  const after = (await res.json()) as Refusals;
  expect(after.alerts - before.alerts).toBe(2);
  expect(after.batches - before.batches).toBe(1);
  expect(after.latest[0]).toMatchObject({ refused: 2, reason: 'invalid label set: invalid name "bad-name"' });
  // The post is the project's last (noted at most every 5 s, so no older than that before it).
  expect(Date.parse(after.lastPostAt!)).toBeGreaterThanOrEqual(posted - 5_000);
  // A key without obs.alerts.list is refused.
  const { secret: sender } = await createKey(gil, demo.globex, {
    name: unique('s'),
    permissions: ['obs.alerts.create'],
  });
  const refused = await (await bearer(sender)).get(path);
  expect(refused.status()).toBe(403);
});
