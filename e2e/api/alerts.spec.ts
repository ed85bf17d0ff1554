import { expect, test } from '../fixtures';
import { amAlerts, keyContext, postAlerts, productionAm, runLabel } from '../support/alerts';

test.describe('receiving alerts as Alertmanager 0.25 does', () => {
  test('[] is 200; undecodable 400 {code: 400}; a schema failure 422 {code: 602} with nothing stored', async ({
    as,
    demo,
  }) => {
    const { api } = await keyContext(await as('ada'), demo);
    const run = runLabel();
    const empty = await postAlerts(api, demo, []);
    expect(empty.status()).toBe(200);
    expect(empty.headers()['content-type']).toContain('application/json');

    for (const body of ['{not json', '{"labels":{"run":"x"}}', `[{"labels":{"run":"${run}","n":1}}]`]) {
      const res = await postAlerts(api, demo, body);
      expect(res.status(), body).toBe(400);
      const answer = (await res.json()) as { code: number; message: string };
      expect(answer.code).toBe(400);
      expect(answer.message).toMatch(/^parsing alerts body from "" failed, because /);
    }

    const schema = [
      [{ labels: { run, alertname: 'Kept?' } }, { annotations: {} }],
      [{ labels: { run, alertname: 'Kept?' } }, { labels: { run }, startsAt: 'yesterday' }],
      [{ labels: { run, alertname: 'Kept?' }, generatorURL: 'no uri' }],
    ];
    const messages = [];
    for (const body of schema) {
      const res = await postAlerts(api, demo, body);
      expect(res.status()).toBe(422);
      const answer = (await res.json()) as { code: number; message: string };
      expect(answer.code).toBe(602);
      messages.push(answer.message);
    }
    expect(messages[0]).toBe('1.labels in body is required');
    expect(messages[1]).toBe('1.startsAt in body must be of type date-time: "yesterday"');
    expect(await amAlerts(api, demo, run)).toEqual([]);
  });

  test('refused alerts are named in a 400 string and the valid ones are stored', async ({ as, demo }) => {
    const { api } = await keyContext(await as('ada'), demo);
    const run = runLabel();
    const res = await postAlerts(api, demo, [
      { labels: { run, alertname: 'Good' } },
      { labels: { run, 'bad-name': 'x' } },
      { labels: { run, alertname: 'Backwards' }, startsAt: '2030-01-01T12:00:00Z', endsAt: '2030-01-01T11:00:00Z' },
      { labels: { run: '' } },
      { labels: { run, alertname: 'Big' }, annotations: { description: 'x'.repeat(17_000) } },
      { labels: { run, alertname: 'AlsoGood' } },
    ]);
    expect(res.status()).toBe(400);
    expect(res.headers()['content-type']).toContain('application/json');
    const message = (await res.json()) as string;
    expect(typeof message).toBe('string');
    expect(message).toContain(`alert 1 {bad-name="x", run="${run}"}: invalid label set: invalid name "bad-name"`);
    expect(message).toContain('alert 2 ');
    expect(message).toContain('start time must be before end time');
    expect(message).toContain('alert 3 {}: at least one label pair required');
    expect(message).toContain('alert 4 ');
    expect(message).toContain('alert too big');
    expect(message).not.toContain('alert 0 ');
    expect(message).not.toContain('alert 5 ');
    const stored = await amAlerts(api, demo, run);
    expect(stored.map((a) => a.labels.alertname).sort()).toEqual(['AlsoGood', 'Good']);
  });

  test('fingerprints are Alertmanager’s: unicode, empty values dropped, many labels', async ({ as, demo }) => {
    const { api } = await keyContext(await as('ada'), demo);
    // Computed the way prometheus/common's LabelsToSignature does (FNV-1a 64, sorted `name 0xFF value 0xFF`).
    const cases = [
      { labels: { alertname: 'FingerprintProbe', team: '日本語', emoji: '🔥', accent: 'é' }, fp: '48879982a74579ab' },
      { labels: { alertname: 'FingerprintProbe', empty: '', instance: 'db-1' }, fp: '4c015562fe440ce7' },
      {
        labels: Object.fromEntries([
          ['alertname', 'FingerprintProbe'],
          ...Array.from({ length: 30 }, (_, i) => [`label_${String(i).padStart(2, '0')}`, `value ${i}`]),
        ]) as Record<string, string>,
        fp: '5d7b637c6241f766',
      },
    ];
    const res = await postAlerts(
      api,
      demo,
      cases.map((c) => ({ labels: c.labels })),
    );
    expect(res.status(), await res.text()).toBe(200);
    const listed = await api.get(`${productionAm(demo)}/alerts?filter=alertname%3D%22FingerprintProbe%22`);
    const alerts = (await listed.json()) as { fingerprint: string; labels: Record<string, string> }[];
    for (const c of cases) {
      const found = alerts.find((a) => a.fingerprint === c.fp);
      expect(found, c.fp).toBeDefined();
      expect(found?.labels).not.toHaveProperty('empty');
    }
  });

  test('a repeated post merges: the first start kept while firing, the newest annotations', async ({ as, demo }) => {
    const { api } = await keyContext(await as('ada'), demo);
    const run = runLabel();
    const labels = { run, alertname: 'Merged' };
    expect((await postAlerts(api, demo, [{ labels, annotations: { summary: 'first' } }])).status()).toBe(200);
    const [first] = await amAlerts(api, demo, run);
    await new Promise((r) => setTimeout(r, 20));
    const zero = '0001-01-01T00:00:00.000Z';
    const again = [{ labels, annotations: { summary: 'second' }, startsAt: zero, endsAt: zero }];
    expect((await postAlerts(api, demo, again)).status()).toBe(200);
    const [second] = await amAlerts(api, demo, run);
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(second.startsAt).toBe(first.startsAt);
    expect(second.annotations).toEqual({ summary: 'second' });
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    expect(Date.parse(second.endsAt) - Date.parse(second.updatedAt)).toBe(5 * 60_000);

    const resolved = [{ labels, endsAt: new Date(Date.now() - 1000).toISOString() }];
    expect((await postAlerts(api, demo, resolved)).status()).toBe(200);
    expect(await amAlerts(api, demo, run)).toEqual([]);
  });

  test('the models exactly, and the query as Alertmanager parses it', async ({ as, demo }) => {
    const { api } = await keyContext(await as('ada'), demo);
    const run = runLabel();
    const url = 'http://prometheus.example:9090/graph?g0.expr=up&g0.tab=1';
    const res = await postAlerts(api, demo, [
      { labels: { run, alertname: 'Model', job: 'apiserver' }, annotations: { summary: 's' }, generatorURL: url },
    ]);
    expect(res.status(), await res.text()).toBe(200);
    const [alert] = await amAlerts(api, demo, run);
    expect(Object.keys(alert).sort()).toEqual(
      [
        'annotations',
        'endsAt',
        'fingerprint',
        'generatorURL',
        'labels',
        'receivers',
        'startsAt',
        'status',
        'updatedAt',
      ].sort(),
    );
    expect(alert).toMatchObject({
      labels: { run, alertname: 'Model', job: 'apiserver' },
      annotations: { summary: 's' },
      generatorURL: url,
      receivers: [{ name: 'project' }],
      status: { state: 'active', silencedBy: [], inhibitedBy: [] },
    });
    expect(alert.fingerprint).toMatch(/^[0-9a-f]{16}$/);

    expect(await amAlerts(api, demo, run, '&active=false')).toEqual([]);
    expect(await amAlerts(api, demo, run, '&silenced=false&inhibited=false&unprocessed=false')).toHaveLength(1);
    expect(await amAlerts(api, demo, run, '&receiver=proj.*')).toHaveLength(1);
    expect(await amAlerts(api, demo, run, '&receiver=proj')).toEqual([]);
    expect(await amAlerts(api, demo, run, `&filter=${encodeURIComponent('job=~"a.*"')}`)).toHaveLength(1);
    expect(await amAlerts(api, demo, run, `&filter=${encodeURIComponent('job!~"a.*"')}`)).toEqual([]);
    expect(await amAlerts(api, demo, run, `&filter=${encodeURIComponent('absent=""')}`)).toHaveLength(1);
    const bad = await api.get(`${productionAm(demo)}/alerts?filter=nonsense`);
    expect(bad.status()).toBe(400);
    expect(typeof (await bad.json())).toBe('string');

    const groups = await api.get(`${productionAm(demo)}/alerts/groups?filter=${encodeURIComponent(`run="${run}"`)}`);
    expect(groups.status()).toBe(200);
    expect(await groups.json()).toEqual([{ labels: {}, receiver: { name: 'project' }, alerts: [alert] }]);
    const none = await api.get(`${productionAm(demo)}/alerts/groups?filter=run%3D%22nobody-${run}%22`);
    expect(await none.json()).toEqual([]);
  });

  test('alerting off is 404; obs.alerts.create and obs.alerts.list are each needed', async ({ as, demo }) => {
    const ada = await as('ada');
    const { api } = await keyContext(ada, demo);
    const run = runLabel();
    const staging = `/alertmanager/${demo.acme}/${demo.staging}/api/v2/alerts`;
    expect((await api.post(staging, { data: [{ labels: { run } }] })).status()).toBe(404);
    expect((await api.get(staging)).status()).toBe(404);

    const silencesOnly = await keyContext(ada, demo, { permissions: ['obs.silences.get'] });
    const refused = await postAlerts(silencesOnly.api, demo, [{ labels: { run } }]);
    expect(refused.status()).toBe(403);
    expect(typeof (await refused.json())).toBe('string');
    expect((await silencesOnly.api.get(`${productionAm(demo)}/alerts`)).status()).toBe(403);

    const sender = await keyContext(ada, demo, { permissions: ['obs.alerts.create'] });
    expect((await postAlerts(sender.api, demo, [{ labels: { run, alertname: 'Sent' } }])).status()).toBe(200);
    expect((await sender.api.get(`${productionAm(demo)}/alerts`)).status()).toBe(403);
    expect(await amAlerts(api, demo, run)).toHaveLength(1);
    expect((await postAlerts(await as('ada'), demo, [{ labels: { run } }])).status()).toBe(401);
  });
});
