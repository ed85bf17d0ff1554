import { bearer, expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { alertmanagerBase, amtool, unique } from '../support/amtool';
import { productionSilences } from '../support/silences';

const SILENCES = ['obs.silences.get', 'obs.silences.list', 'obs.silences.create', 'obs.silences.update'];

test.describe('the Alertmanager API honours key restrictions', () => {
  test('a key restricted to Production and obs.silences.* drives amtool there, and gets 403 elsewhere', async ({
    bob,
    demo,
    request,
  }) => {
    const base = alertmanagerBase(demo.acme, demo.production);
    const silencesOnly = await createKey(bob, demo.acme, {
      name: unique('amtool restricted'),
      expiresInDays: 1,
      permissions: SILENCES,
      projectIds: [demo.production],
    });
    const auth = { bearer: silencesOnly.secret };
    const added = await amtool(base, auth, ['silence', 'add', 'alertname=KeyScope', `--comment=${unique('scoped')}`]);
    expect(added, added.stderr).toMatchObject({ code: 0 });
    const id = added.stdout.trim();
    const query = await amtool(base, auth, ['silence', 'query', '-q']);
    expect(query.stdout).toContain(id);
    const expired = await amtool(base, auth, ['silence', 'expire', id]);
    expect(expired, expired.stderr).toMatchObject({ code: 0 });

    // Elsewhere on /v1: the same key cannot read subscriptions, which bob can.
    const key = await bearer(silencesOnly.secret);
    const subs = await key.get(`/v1/organizations/${demo.acme}/projects/${demo.production}/subscriptions`);
    expect(subs.status()).toBe(403);
    expect((await subs.json()).error.code).toBe('key_scope_insufficient');
    await key.dispose();

    // A key of bob's restricted to Staging, or to reading: amtool is refused on Production with 403.
    const staging = await createKey(bob, demo.acme, {
      name: unique('amtool staging'),
      expiresInDays: 1,
      permissions: ['obs.silences.get', 'obs.silences.list'],
      projectIds: [demo.staging],
    });
    const readOnly = await createKey(bob, demo.acme, {
      name: unique('amtool read-only'),
      expiresInDays: 1,
      permissions: ['obs.silences.get', 'obs.silences.list'],
      projectIds: [demo.production],
    });
    const before = (await (await bob.get(`${productionSilences(demo)}?limit=100`)).json()) as { items: unknown[] };
    const outside = await amtool(base, { bearer: staging.secret }, ['silence', 'query', '-q']);
    expect(outside.code).not.toBe(0);
    const write = await amtool(base, { bearer: readOnly.secret }, ['silence', 'add', 'alertname=Nope', '--comment=no']);
    expect(write.code).not.toBe(0);
    for (const secret of [staging.secret, readOnly.secret]) {
      const res = await request.post(`${base}/api/v2/silences`, {
        headers: { Authorization: `Bearer ${secret}` },
        data: {
          matchers: [{ name: 'alertname', value: 'Nope', isRegex: false, isEqual: true }],
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + 3_600_000).toISOString(),
          createdBy: 'test',
          comment: 'refused',
        },
      });
      expect(res.status()).toBe(403);
      expect(await res.json()).toMatch(/restricted/);
    }
    const after = (await (await bob.get(`${productionSilences(demo)}?limit=100`)).json()) as { items: unknown[] };
    expect(after.items).toEqual(before.items);
  });

  test('amtool silence update reads first: an update-only key is told it needs obs.silences.get too', async ({
    bob,
    demo,
    request,
  }) => {
    const base = alertmanagerBase(demo.acme, demo.production);
    const key = (permissions: string[]) =>
      createKey(bob, demo.acme, {
        name: unique('amtool update'),
        expiresInDays: 1,
        permissions,
        projectIds: [demo.production],
      });
    const writer = await key(SILENCES);
    const added = await amtool(base, { bearer: writer.secret }, [
      'silence',
      'add',
      'alertname=ReadsFirst',
      '--comment=a',
    ]);
    expect(added, added.stderr).toMatchObject({ code: 0 });
    const id = added.stdout.trim();

    // amtool asks GET /silence/{id} first, and prints no body for a status its client does not know (403: `{}`).
    const updateOnly = await key(['obs.silences.update']);
    const refused = await amtool(base, { bearer: updateOnly.secret }, ['silence', 'update', id, '--comment=b']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('(status 403)');
    // The same request, as curl or Grafana sends it, reads what is missing and why amtool needs it.
    const read = await request.get(`${base}/api/v2/silence/${id}`, {
      headers: { Authorization: `Bearer ${updateOnly.secret}` },
    });
    expect(read.status()).toBe(403);
    expect(await read.json()).toBe(
      'This API key is restricted to permissions that do not include obs.silences.get; amtool reads a silence before ' +
        'it updates it. Use a key whose restrictions include obs.silences.get in this project.',
    );
    const silence = async () =>
      (await (await bob.get(`${productionSilences(demo)}/${id}`)).json()) as { comment: string };
    expect((await silence()).comment).toBe('a');

    // With obs.silences.get as well, the same command updates the silence in place.
    const both = await key(['obs.silences.get', 'obs.silences.update']);
    const updated = await amtool(base, { bearer: both.secret }, ['silence', 'update', id, '--comment=b']);
    expect(updated, updated.stderr).toMatchObject({ code: 0 });
    expect(updated.stdout).toContain(id);
    expect((await silence()).comment).toBe('b');
    // Another start makes a new silence, which needs obs.silences.create: said in the 403.
    const moved = await request.post(`${base}/api/v2/silences`, {
      headers: { Authorization: `Bearer ${both.secret}` },
      data: {
        id,
        matchers: [{ name: 'alertname', value: 'ReadsFirst', isRegex: false, isEqual: true }],
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: 'test',
        comment: 'c',
      },
    });
    expect(moved.status()).toBe(403);
    expect(await moved.json()).toContain(
      'do not include obs.silences.create; another start or other matchers replace an active silence with a new one.',
    );
    const expired = await amtool(base, { bearer: writer.secret }, ['silence', 'expire', id]);
    expect(expired, expired.stderr).toMatchObject({ code: 0 });
  });
});
