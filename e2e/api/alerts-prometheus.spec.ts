import { expect, test, type Demo } from '../fixtures';
import { createKey } from '../support/api-keys';
import { amtool, alertmanagerBase, unique } from '../support/amtool';
import { E2E } from '../support/env';
import { prometheusCounter, startPrometheus, type Prometheus } from '../support/prometheus';
import type { APIRequestContext } from '@playwright/test';

// Debian's real Prometheus, with a rule that always fires and this project as its Alertmanager, configured as
// docs/alertmanager.md says (path_prefix and a bearer key that may only send alerts).
type Alert = {
  fingerprint: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  generatorURL: string;
  state: string;
  silencedBy: string[];
};

const alertsPath = (demo: Demo) => `/v1/organizations/${demo.acme}/projects/${demo.production}/obs/alerts`;

async function alertsOf(ctx: APIRequestContext, demo: Demo, run: string, state = ''): Promise<Alert[]> {
  const query = new URLSearchParams({ filter: `run="${run}"`, ...(state ? { state } : {}) });
  const res = await ctx.get(`${alertsPath(demo)}?${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: Alert[] }).items;
}

/** Polls until `check` passes: Prometheus evaluates and sends every second, so a state arrives within seconds. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 60; i++) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`never: ${what}`);
}

test.describe('alerts from a real Prometheus', () => {
  const running: Prometheus[] = [];
  test.afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });

  test('its alert arrives, amtool sees it, a silence mutes it, and it resolves when Prometheus stops', async ({
    as,
    demo,
  }) => {
    test.slow();
    const ada = await as('ada');
    const run = unique('prom').replace(/\W/g, '_');
    // Least privilege: a key that may only send alerts to Production, as an AlertSender bot's would.
    const sender = await createKey(ada, demo.acme, {
      name: unique('prometheus'),
      expiresInDays: 1,
      permissions: ['obs.alerts.create'],
      projectIds: [demo.production],
    });
    const prometheus = await startPrometheus({
      target: `127.0.0.1:${E2E.port}`,
      pathPrefix: `/alertmanager/${demo.acme}/${demo.production}`,
      key: sender.secret,
      alertname: 'E2EAlwaysFiring',
      labels: { severity: 'page', run },
      port: E2E.port + 80,
    });
    running.push(prometheus);

    const [alert] = await eventually(
      () => alertsOf(ada, demo, run),
      (items) => items.length === 1,
      'the alert arrives',
    );
    expect(alert).toMatchObject({
      labels: { alertname: 'E2EAlwaysFiring', severity: 'page', run },
      annotations: { summary: 'always firing, from an e2e test' },
      state: 'firing',
      silencedBy: [],
    });
    expect(alert.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(alert.generatorURL).toContain(`:${E2E.port + 80}/graph`);
    expect(await prometheusCounter(prometheus.url, 'prometheus_notifications_errors_total')).toBe(0);

    const bobKey = (await createKey(await as('bob'), demo.acme, { name: unique('amtool'), expiresInDays: 1 })).secret;
    const query = await amtool(alertmanagerBase(demo.acme, demo.production), { bearer: bobKey }, [
      'alert',
      'query',
      `run=${run}`,
    ]);
    expect(query, query.stderr).toMatchObject({ code: 0 });
    expect(query.stdout).toContain('E2EAlwaysFiring');

    const silence = await ada.post(`/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences`, {
      data: {
        comment: unique('mute prometheus'),
        matchers: [{ label: 'run', op: '=', value: run }],
        endsAt: inAnHour(),
      },
    });
    expect(silence.status(), await silence.text()).toBe(201);
    const silenceId = ((await silence.json()) as { id: string }).id;
    // Muting is kept as silences change: the next read says so, and Prometheus's resends keep it muted.
    expect((await alertsOf(ada, demo, run))[0]).toMatchObject({ state: 'silenced', silencedBy: [silenceId] });
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await alertsOf(ada, demo, run))[0]).toMatchObject({ state: 'silenced', silencedBy: [silenceId] });

    await prometheus.stop();
    // Prometheus sent endsAt a few seconds ahead of each evaluation: past it, the alert is resolved.
    await eventually(
      () => alertsOf(ada, demo, run, 'resolved'),
      (items) => items.length === 1,
      'the alert resolves once Prometheus stops sending it',
    );
    expect(await alertsOf(ada, demo, run)).toEqual([]);
  });

  test('a key that may not send alerts is refused, Prometheus counts the errors, and nothing is stored', async ({
    as,
    demo,
  }) => {
    const cy = await as('cy');
    const run = unique('refused').replace(/\W/g, '_');
    // cy holds BasicAccess only: no obs.alerts.create.
    const key = (await createKey(cy, demo.acme, { name: unique('no alerts'), expiresInDays: 1 })).secret;
    const prometheus = await startPrometheus({
      target: `127.0.0.1:${E2E.port}`,
      pathPrefix: `/alertmanager/${demo.acme}/${demo.production}`,
      key,
      alertname: 'E2ERefused',
      labels: { run },
      port: E2E.port + 81,
    });
    running.push(prometheus);
    await eventually(
      () => prometheusCounter(prometheus.url, 'prometheus_notifications_errors_total'),
      (errors) => errors > 0,
      'Prometheus counts a refused batch',
    );
    expect(await alertsOf(await as('ada'), demo, run)).toEqual([]);
  });
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/(\.\d{3})\d*Z$/, '$1Z');
