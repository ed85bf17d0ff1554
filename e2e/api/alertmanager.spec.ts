import { expect, test } from '../fixtures';
import { auditEventsAbout } from '../support/audit';
import { alertmanagerBase, amtool, everySilence, keyOf, unique, type Gettable } from '../support/amtool';
import { productionSilences, type Silence } from '../support/silences';

test.describe('the Alertmanager API with the real amtool', () => {
  test('add with =~ and != matchers, query, update and expire, each with the /v1 audit event', async ({ as, demo }) => {
    const bob = await as('bob');
    const key = await keyOf(bob, demo, 'amtool');
    const base = alertmanagerBase(demo.acme, demo.production);
    const comment = unique('disk full via amtool');

    const added = await amtool(base, { bearer: key }, [
      'silence',
      'add',
      'alertname=~"Disk.*"',
      'instance!="db-1"',
      'severity=critical',
      `--comment=${comment}`,
      '--duration=2h',
      '--author=someone-else',
    ]);
    expect(added, added.stderr).toMatchObject({ code: 0 });
    const id = added.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const v1 = (await (await bob.get(`${productionSilences(demo)}/${id}`)).json()) as Silence;
    expect(v1).toMatchObject({
      comment,
      state: 'active',
      matchers: [
        { label: 'alertname', op: '=~', value: 'Disk.*' },
        { label: 'instance', op: '!=', value: 'db-1' },
        { label: 'severity', op: '=', value: 'critical' },
      ],
      createdBy: { id: demo.users.bob, type: 'user' },
    });
    const [created] = await auditEventsAbout(await as('ada'), demo.acme, id);
    expect(created).toMatchObject({
      action: 'silence.created',
      actor: { type: 'user', id: demo.users.bob, via: 'api_key' },
      context: { createdBy: 'someone-else' },
    });

    const quiet = await amtool(base, { bearer: key }, ['silence', 'query', '-q']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout.split('\n')).toContain(id);

    const filtered = await amtool(base, { bearer: key }, ['silence', 'query', '-o', 'json', 'alertname=~"Disk.*"']);
    const shown = JSON.parse(filtered.stdout) as Gettable[];
    expect(shown.map((s) => s.id)).toContain(id);
    expect(
      shown.every((s) => s.matchers.some((m) => m.name === 'alertname' && m.isRegex && m.value === 'Disk.*')),
    ).toBe(true);
    expect(shown.find((s) => s.id === id)).toMatchObject({
      status: { state: 'active' },
      createdBy: v1.createdBy.name,
      matchers: [
        { name: 'alertname', value: 'Disk.*', isRegex: true, isEqual: true },
        { name: 'instance', value: 'db-1', isRegex: false, isEqual: false },
        { name: 'severity', value: 'critical', isRegex: false, isEqual: true },
      ],
    });
    const other = await amtool(base, { bearer: key }, ['silence', 'query', '-q', 'alertname="Disk.*"']);
    expect(other.stdout.split('\n')).not.toContain(id);

    const updated = await amtool(base, { bearer: key }, ['silence', 'update', id, '--duration=5h', '--comment=longer']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(id);
    const after = (await (await bob.get(`${productionSilences(demo)}/${id}`)).json()) as Silence;
    expect(after).toMatchObject({ id, comment: 'longer', version: 2, startsAt: v1.startsAt, matchers: v1.matchers });
    expect(Date.parse(after.endsAt) - Date.parse(v1.startsAt)).toBe(5 * 3_600_000);

    const expired = await amtool(base, { bearer: key }, ['silence', 'expire', id]);
    expect(expired.code, expired.stderr).toBe(0);
    const gone = (await (await bob.get(`${productionSilences(demo)}/${id}`)).json()) as Silence;
    expect(gone.state).toBe('expired');
    const again = await amtool(base, { bearer: key }, ['silence', 'expire', id]);
    expect(again.code, again.stderr).toBe(0);

    const events = await auditEventsAbout(await as('ada'), demo.acme, id);
    expect(events.map((e) => e.action)).toEqual(['silence.created', 'silence.updated', 'silence.expired']);
    expect(events[1].changes.map((c) => c.field).sort()).toEqual(['comment', 'endsAt']);

    const live = await amtool(base, { bearer: key }, ['silence', 'query', '-q']);
    expect(live.stdout.split('\n')).not.toContain(id);
    const withExpired = await amtool(base, { bearer: key }, ['silence', 'query', '-q', '--expired']);
    expect(withExpired.stdout.split('\n')).toContain(id);
  });

  test('changing the matchers of an active silence expires it and creates a new one, both audited', async ({
    as,
    demo,
    request,
  }) => {
    const bob = await as('bob');
    const key = await keyOf(bob, demo, 'replace');
    const url = `${alertmanagerBase(demo.acme, demo.production)}/api/v2/silences`;
    const auth = { Authorization: `Bearer ${key}` };
    const body = {
      matchers: [{ name: 'job', value: 'api', isRegex: false, isEqual: true }],
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'grafana user',
      comment: unique('replace me'),
    };
    const first = await request.post(url, { data: body, headers: auth });
    expect(first.status(), await first.text()).toBe(200);
    const { silenceID } = (await first.json()) as { silenceID: string };
    const original = (await (await bob.get(`${productionSilences(demo)}/${silenceID}`)).json()) as Silence;

    const sameStart = await request.post(url, {
      data: { ...body, id: silenceID, startsAt: original.startsAt, comment: 'kept in place', status: { state: 'x' } },
      headers: auth,
    });
    expect(await sameStart.json()).toEqual({ silenceID });

    const changed = await request.post(url, {
      data: { ...body, id: silenceID, matchers: [{ name: 'job', value: 'web', isRegex: false }] },
      headers: auth,
    });
    expect(changed.status(), await changed.text()).toBe(200);
    const replacement = ((await changed.json()) as { silenceID: string }).silenceID;
    expect(replacement).not.toBe(silenceID);
    const old = (await (await bob.get(`${productionSilences(demo)}/${silenceID}`)).json()) as Silence;
    expect(old).toMatchObject({ state: 'expired', comment: 'kept in place' });
    const fresh = (await (await bob.get(`${productionSilences(demo)}/${replacement}`)).json()) as Silence;
    expect(fresh).toMatchObject({ state: 'active', matchers: [{ label: 'job', op: '=', value: 'web' }] });
    const ada = await as('ada');
    expect((await auditEventsAbout(ada, demo.acme, silenceID)).map((e) => e.action)).toEqual([
      'silence.created',
      'silence.updated',
      'silence.expired',
    ]);
    expect((await auditEventsAbout(ada, demo.acme, replacement)).map((e) => e.action)).toEqual(['silence.created']);
  });

  test('config show, alert query and the empty lists answer as Alertmanager 0.25 does', async ({
    as,
    demo,
    request,
  }) => {
    const key = await keyOf(await as('cy'), demo, 'reader');
    const base = alertmanagerBase(demo.acme, demo.production);
    const config = await amtool(base, { bearer: key }, ['config', 'show']);
    expect(config.code, config.stderr).toBe(0);
    expect(config.stdout).toContain('receiver: "project"');
    const alerts = await amtool(base, { basic: key }, ['alert', 'query']);
    expect(alerts.code, alerts.stderr).toBe(0);
    expect(alerts.stdout.trim().split('\n').length).toBeLessThanOrEqual(1);
    const status = (await (
      await request.get(`${base}/api/v2/status`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as {
      cluster: unknown;
      versionInfo: Record<string, string>;
    };
    expect(status.cluster).toEqual({ status: 'disabled', peers: [], name: '' });
    expect(Object.keys(status.versionInfo).sort()).toEqual(
      ['branch', 'buildDate', 'buildUser', 'goVersion', 'revision', 'version'].sort(),
    );
    const doc = await request.get('/v1/openapi/alertmanager.json');
    expect(doc.status()).toBe(200);
    expect(Object.keys(((await doc.json()) as { paths: object }).paths)).toContain(
      '/alertmanager/{orgId}/{projectId}/api/v2/silences',
    );
    // Production's alerts are other tests' (e2e/api/alerts*.spec.ts): here only that each answers a JSON list.
    const receivers = await request.get(`${base}/api/v2/receivers`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await receivers.json()).toEqual([{ name: 'project' }]);
    for (const path of ['alerts', 'alerts/groups', 'receivers']) {
      const res = await request.get(`${base}/api/v2/${path}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toContain('application/json');
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });

  test('an expired silence past SILENCE_RETENTION_SECONDS is absent from amtool and GET /silences, still on /v1', async ({
    as,
    demo,
    request,
  }) => {
    const bob = await as('bob');
    const key = await keyOf(bob, demo, 'retention');
    const retentionMs = 432_000 * 1000;
    const old = (await everySilence(bob, productionSilences(demo), 'expired')).find(
      (s) => Date.parse(s.endsAt) < Date.now() - retentionMs,
    );
    expect(old, 'the demo data has a silence that ended 8 days ago').toBeDefined();
    const base = alertmanagerBase(demo.acme, demo.production);
    const listed = (await (
      await request.get(`${base}/api/v2/silences`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as Gettable[];
    expect(listed.map((s) => s.id)).not.toContain(old!.id);
    expect(listed.some((s) => s.status.state === 'expired')).toBe(true);
    const query = await amtool(base, { bearer: key }, ['silence', 'query', '-q', '--expired']);
    expect(query.stdout.split('\n')).not.toContain(old!.id);
  });
});
