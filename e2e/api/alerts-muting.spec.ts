import type { APIRequestContext } from '@playwright/test';
import { expect, expectError, test, type Demo } from '../fixtures';
import {
  adaWithKey,
  amAlerts,
  keyContext,
  postAlerts,
  productionAlerts,
  productionAm,
  v1Alerts,
} from '../support/alerts';
import { inHours, productionSilences, type Silence } from '../support/silences';

type Matcher = { label: string; op: string; value: string };

async function createSilence(
  ctx: APIRequestContext,
  demo: Demo,
  matchers: Matcher[],
  times: { startsAt?: string; endsAt?: string } = {},
): Promise<Silence> {
  const res = await ctx.post(productionSilences(demo), {
    data: { comment: 'alerts muting test', matchers, endsAt: inHours(2), ...times },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Silence;
}

const silenceOf = async (ctx: APIRequestContext, demo: Demo, id: string) =>
  (await (await ctx.get(`${productionSilences(demo)}/${id}`)).json()) as Silence & { mutedAlerts: number };

test.describe('silences mute alerts, as of each request', () => {
  test('created, edited and expired (through /v1 and Alertmanager’s DELETE), the state follows at once', async ({
    as,
    demo,
  }) => {
    const { ada, api, run } = await adaWithKey(as, demo);
    // Names and labels no other test's silence matches (theirs match `alertname=~"Disk.*"`, `severity`…).
    const [disk, cpu] = [`${run}Disk`, `${run}Cpu`];
    const post = await postAlerts(api, demo, [
      { labels: { run, alertname: disk, level: 'critical' } },
      { labels: { run, alertname: disk, level: 'warning' } },
      { labels: { run, alertname: cpu } },
    ]);
    expect(post.status(), await post.text()).toBe(200);

    const silence = await createSilence(ada, demo, [
      { label: 'run', op: '=', value: run },
      { label: 'alertname', op: '=~', value: `${run}Di.*` },
      { label: 'instance', op: '!=', value: 'db-1' },
    ]);
    expect(silence).toMatchObject({ state: 'active', mutedAlerts: 2 });
    const listed = await amAlerts(api, demo, run);
    const byName = (a: { labels: Record<string, string> }) =>
      `${a.labels.alertname.slice(run.length)}/${a.labels.level ?? ''}`;
    expect(Object.fromEntries(listed.map((a) => [byName(a), a.status]))).toEqual({
      'Cpu/': { state: 'active', silencedBy: [], inhibitedBy: [] },
      'Disk/critical': { state: 'suppressed', silencedBy: [silence.id], inhibitedBy: [] },
      'Disk/warning': { state: 'suppressed', silencedBy: [silence.id], inhibitedBy: [] },
    });
    expect((await amAlerts(api, demo, run, '&silenced=false')).map(byName)).toEqual(['Cpu/']);
    expect((await amAlerts(api, demo, run, '&active=false')).map(byName).sort()).toEqual([
      'Disk/critical',
      'Disk/warning',
    ]);

    // A new alert the silence matches is muted as it is stored.
    await postAlerts(api, demo, [{ labels: { run, alertname: disk, level: 'info' } }]);
    expect((await silenceOf(ada, demo, silence.id)).mutedAlerts).toBe(3);

    // A scheduled silence mutes nothing yet; its matchers edited away, it would not either.
    const later = await createSilence(ada, demo, [{ label: 'run', op: '=', value: run }], {
      startsAt: inHours(1),
      endsAt: inHours(2),
    });
    expect(later).toMatchObject({ state: 'scheduled', mutedAlerts: 0 });
    const cpuAlert = (await amAlerts(api, demo, run)).find((a) => a.labels.alertname === cpu);
    expect(cpuAlert?.status.silencedBy).toEqual([]);

    // Ended through /v1: unmuted at once.
    const expired = await ada.delete(`${productionSilences(demo)}/${silence.id}`);
    expect(expired.status(), await expired.text()).toBe(200);
    expect(((await expired.json()) as { mutedAlerts: number }).mutedAlerts).toBe(0);
    expect((await amAlerts(api, demo, run, '&active=false')).map(byName)).toEqual([]);

    // Another, ended through Alertmanager's DELETE.
    const again = await createSilence(ada, demo, [{ label: 'run', op: '=', value: run }]);
    expect(again.mutedAlerts).toBe(4);
    expect((await amAlerts(api, demo, run, '&active=false')).length).toBe(4);
    expect((await api.delete(`${productionAm(demo)}/silence/${again.id}`)).status()).toBe(200);
    expect((await amAlerts(api, demo, run, '&active=false')).length).toBe(0);
  });

  test('an edit of an active silence’s end to the past unmutes; a scheduled one’s matchers are relinked', async ({
    as,
    demo,
  }) => {
    const { ada, api, run } = await adaWithKey(as, demo);
    await postAlerts(api, demo, [{ labels: { run, alertname: 'A' } }, { labels: { run, alertname: 'B' } }]);
    const active = await createSilence(ada, demo, [
      { label: 'run', op: '=', value: run },
      { label: 'alertname', op: '=', value: 'A' },
    ]);
    expect(active.mutedAlerts).toBe(1);
    const ended = await ada.patch(`${productionSilences(demo)}/${active.id}`, {
      data: { endsAt: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(ended.status(), await ended.text()).toBe(200);
    expect(((await ended.json()) as Silence).state).toBe('expired');
    expect((await amAlerts(api, demo, run, '&active=false')).length).toBe(0);

    const scheduled = await createSilence(ada, demo, [{ label: 'run', op: '=', value: `${run}-nothing` }], {
      startsAt: inHours(1),
      endsAt: inHours(3),
    });
    const edited = await ada.patch(`${productionSilences(demo)}/${scheduled.id}`, {
      data: { matchers: [{ label: 'run', op: '=', value: run }], startsAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(edited.status(), await edited.text()).toBe(200);
    expect(await edited.json()).toMatchObject({ state: 'active', mutedAlerts: 2 });
    const muted = await amAlerts(api, demo, run);
    expect(muted.map((a) => a.status.silencedBy)).toEqual([[scheduled.id], [scheduled.id]]);
  });
});

test.describe('/v1 alerts and the silence preview', () => {
  test('list by state, filter and q, in keyset pages; get by fingerprint; 404s', async ({ as, demo }) => {
    const { ada, api, run } = await adaWithKey(as, demo);
    const alerts = Array.from({ length: 7 }, (_, i) => ({
      labels: { run, alertname: `Page${i}`, team: i % 2 ? 'odd' : 'even' },
      annotations: { summary: `needle-${run}-${i}` },
      startsAt: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    }));
    const resolvedAt = new Date(Date.now() - 1000).toISOString();
    alerts.push({
      labels: { run, alertname: 'Gone', team: 'even' },
      annotations: { summary: '' },
      startsAt: resolvedAt,
    });
    const post = await postAlerts(api, demo, [...alerts.slice(0, 7), { ...alerts[7], endsAt: resolvedAt }]);
    expect(post.status(), await post.text()).toBe(200);
    const silence = await createSilence(ada, demo, [
      { label: 'run', op: '=', value: run },
      { label: 'team', op: '=', value: 'odd' },
    ]);

    const unresolved = await v1Alerts(ada, demo, run);
    expect(unresolved.map((a) => a.labels.alertname)).toEqual(alerts.slice(0, 7).map((a) => a.labels.alertname));
    expect(unresolved[1]).toMatchObject({ state: 'silenced', silencedBy: [silence.id], generatorURL: '' });
    expect(unresolved[0]).toMatchObject({ state: 'firing', silencedBy: [] });
    expect((await v1Alerts(ada, demo, run, '&state=firing')).map((a) => a.labels.team)).toEqual([
      'even',
      'even',
      'even',
      'even',
    ]);
    expect(await v1Alerts(ada, demo, run, '&state=silenced')).toHaveLength(3);
    expect((await v1Alerts(ada, demo, run, '&state=resolved')).map((a) => a.labels.alertname)).toEqual(['Gone']);
    expect(await v1Alerts(ada, demo, run, `&filter=${encodeURIComponent('alertname=~"Page[12]"')}`)).toHaveLength(2);
    expect(await v1Alerts(ada, demo, run, `&q=needle-${run}-3`)).toHaveLength(1);

    const first = await ada.get(`${productionAlerts(demo)}?filter=${encodeURIComponent(`run="${run}"`)}&limit=3`);
    const page = (await first.json()) as { items: { fingerprint: string }[]; nextCursor: string | null };
    expect(page.items).toHaveLength(3);
    expect(page.nextCursor).not.toBeNull();

    const one = await ada.get(`${productionAlerts(demo)}/${unresolved[1].fingerprint}`);
    expect(one.status()).toBe(200);
    expect(await one.json()).toEqual(unresolved[1]);
    await expectError(await ada.get(`${productionAlerts(demo)}/0000000000000000`), 404, 'not_found');
    await expectError(await ada.get(`${productionAlerts(demo)}?filter=nonsense`), 400, 'invalid_request', ['filter.0']);
    const staging = `/v1/organizations/${demo.acme}/projects/${demo.staging}/obs/alerts`;
    await expectError(await ada.get(staging), 404, 'not_found');

    const restricted = await keyContext(ada, demo, { permissions: ['obs.silences.get'] });
    await expectError(await restricted.api.get(productionAlerts(demo)), 403, 'key_scope_insufficient');
  });

  test('preview: validated as a silence, the total and the first alerts it would mute', async ({ as, demo }) => {
    const { ada, api, run } = await adaWithKey(as, demo);
    const bob = await as('bob');
    await postAlerts(api, demo, [
      { labels: { run, alertname: 'Prev', instance: 'a' } },
      { labels: { run, alertname: 'Prev' } },
      { labels: { run, alertname: 'Other', instance: 'b' } },
    ]);
    const preview = `${productionSilences(demo)}/preview`;
    const matchers = [
      { label: 'run', op: '=', value: run },
      { label: 'instance', op: '=~', value: '|a' },
    ];
    const res = await bob.post(preview, { data: { matchers } });
    expect(res.status(), await res.text()).toBe(200);
    const answer = (await res.json()) as { total: number; alerts: { labels: Record<string, string> }[] };
    expect(answer.total).toBe(2);
    expect(answer.alerts.map((a) => a.labels.alertname)).toEqual(['Prev', 'Prev']);

    await expectError(await bob.post(preview, { data: { matchers: [] } }), 400, 'invalid_request', ['matchers']);
    await expectError(
      await bob.post(preview, { data: { matchers: [{ label: 'x', op: '=~', value: '(' }] } }),
      400,
      'invalid_request',
      ['matchers.0.value'],
    );
    await expectError(
      await bob.post(preview, { data: { matchers, startsAt: inHours(2), endsAt: inHours(1) } }),
      400,
      'invalid_request',
      ['endsAt'],
    );
    const restricted = await keyContext(ada, demo, { permissions: ['obs.silences.get'] });
    await expectError(await restricted.api.post(preview, { data: { matchers } }), 403, 'key_scope_insufficient');
  });
});
