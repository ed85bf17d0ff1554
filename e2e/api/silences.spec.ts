import { bearer, expect, expectError, test } from '../fixtures';
import {
  demoSilence,
  findSilence,
  inHours,
  listAll,
  productionSilences,
  read,
  TIMESTAMP,
  type Silence,
} from '../support/silences';
import { globexSilences, globexSilenceUnchanged, stagingSilences } from '../support/unreachable-silences';
import { EMPTY_MATCHING_MATCHERS, SILENCE_BODY_REFUSALS, validSilenceBody } from '../support/silence-refusals';

test.describe('reading silences', () => {
  test('the list has the three demo states, every field, and filters by state', async ({ as, demo }) => {
    const bob = await as('bob');
    const all = await listAll(bob, productionSilences(demo));
    for (const state of ['scheduled', 'active', 'expired'] as const)
      expect(all.some((s) => s.state === state)).toBe(true);
    for (const s of all) {
      expect(Object.keys(s).sort()).toEqual(
        [
          'comment',
          'createdAt',
          'createdBy',
          'endsAt',
          'id',
          'matchers',
          'mutedAlerts',
          'projectId',
          'resourceName',
          'slug',
          'startsAt',
          'state',
          'updatedAt',
          'updatedBy',
          'version',
        ].sort(),
      );
      expect(s.slug).toMatch(/^sil_[a-z0-9]{12}$/);
      expect(s.resourceName).toBe(`organizations/${demo.acme}/projects/${demo.production}/silences/${s.id}`);
      for (const at of [s.startsAt, s.endsAt, s.createdAt, s.updatedAt]) expect(at).toMatch(TIMESTAMP);
      // The author's name travels with the silence, so anyone who can read it sees a name, not an id.
      expect(s.createdBy).toEqual({ id: expect.any(String), type: 'user', name: expect.any(String) });
    }
    for (const state of ['scheduled', 'active', 'expired'] as const) {
      const res = await bob.get(`${productionSilences(demo)}?state=${state}&limit=100`);
      const items = ((await res.json()) as { items: Silence[] }).items;
      expect(items.length).toBe(all.filter((s) => s.state === state).length);
      expect(items.every((s) => s.state === state)).toBe(true);
    }
    await expectError(await bob.get(`${productionSilences(demo)}?state=muted`), 400, 'invalid_request', ['state']);
  });

  test('counts by state come from the server and agree with the filtered lists', async ({ as, demo }) => {
    const cy = await as('cy');
    const all = await listAll(cy, productionSilences(demo));
    const res = await cy.get(`${productionSilences(demo)}/counts`);
    expect(res.status()).toBe(200);
    const counts = (await res.json()) as Record<string, number>;
    expect(Object.keys(counts).sort()).toEqual(['active', 'expired', 'scheduled']);
    for (const state of ['scheduled', 'active', 'expired'] as const)
      expect(counts[state]).toBe(all.filter((s) => s.state === state).length);
    // Alerting off, or a project of another organization: 404 like every silence route.
    await expectError(await cy.get(`${stagingSilences(demo)}/counts`), 404, 'not_found');
    const gil = await as('gil');
    await expectError(await gil.get(`${productionSilences(demo)}/counts`), 404, 'not_found');
  });

  test('a silence names its author to any reader', async ({ as, demo }) => {
    const ada = await as('ada');
    const all = await listAll(ada, productionSilences(demo));
    const byAda = all.find((s) => s.createdBy.id === demo.users.ada);
    expect(byAda?.createdBy).toEqual({ id: demo.users.ada, type: 'user', name: 'Ada Lovelace' });
  });

  test('the list pages with a cursor', async ({ as, demo }) => {
    const bob = await as('bob');
    const first = (await (await bob.get(`${productionSilences(demo)}?limit=2`)).json()) as {
      items: Silence[];
      nextCursor: string;
    };
    expect(first.items).toHaveLength(2);
    const second = (await (await bob.get(`${productionSilences(demo)}?limit=2&cursor=${first.nextCursor}`)).json()) as {
      items: Silence[];
    };
    expect(second.items[0].id).not.toBe(first.items[1].id);
    await expectError(await bob.get(`${productionSilences(demo)}?cursor=nope`), 400, 'invalid_cursor');
  });

  test('GET one answers a strong ETag of its version', async ({ as, demo }) => {
    const bob = await as('bob');
    const active = await demoSilence(bob, demo, 'active');
    const { silence, etag } = await read(bob, demo, active.id);
    expect(etag).toBe(`"${silence.version}"`);
    expect(silence).toEqual(active);
  });

  test('cy (BasicAccess) and the deploy bot may read but not change (403, nothing changed)', async ({
    as,
    demo,
    fixtures,
  }) => {
    const cy = await as('cy');
    const bot = await bearer(fixtures.keys.deployBot);
    const scheduled = await findSilence(cy, demo, 'scheduled edits');
    for (const ctx of [cy, bot]) {
      expect((await ctx.get(`${productionSilences(demo)}/${scheduled.id}`)).status()).toBe(200);
      await expectError(
        await ctx.patch(`${productionSilences(demo)}/${scheduled.id}`, { data: { comment: 'nope' } }),
        403,
        'access_denied',
      );
      // 403 comes before body validation
      await expectError(
        await ctx.patch(`${productionSilences(demo)}/${scheduled.id}`, { data: { comment: '' } }),
        403,
        'access_denied',
      );
    }
    expect((await read(cy, demo, scheduled.id)).silence).toEqual(scheduled);
    await bot.dispose();
  });

  test('Staging (alerting off) answers 404 on every silence route, even to ada', async ({ as, demo }) => {
    const ada = await as('ada');
    const path = stagingSilences(demo);
    await expectError(await ada.get(path), 404, 'not_found');
    const someId = '00000000-0000-4000-8000-000000000000';
    await expectError(await ada.get(`${path}/${someId}`), 404, 'not_found');
    await expectError(await ada.patch(`${path}/${someId}`, { data: { comment: 'x' } }), 404, 'not_found');
  });

  test("Globex's silence is 404 for Acme users, through Acme's path or Globex's", async ({ as, demo }) => {
    const gil = await as('gil');
    const ada = await as('ada');
    await globexSilenceUnchanged(gil, demo, async (globexSilence) => {
      await expectError(await ada.get(`${globexSilences(demo)}/${globexSilence.id}`), 404, 'not_found');
      await expectError(await ada.get(`${productionSilences(demo)}/${globexSilence.id}`), 404, 'not_found');
      const mine = { data: { comment: 'mine' } };
      await expectError(await ada.patch(`${productionSilences(demo)}/${globexSilence.id}`, mine), 404, 'not_found');
      await expectError(await ada.patch(`${globexSilences(demo)}/${globexSilence.id}`, mine), 404, 'not_found');
    });
  });

  test('unknown and malformed silence ids are 404; a bad body is 400 before the lookup', async ({ as, demo }) => {
    const bob = await as('bob');
    const unknown = `${productionSilences(demo)}/00000000-0000-4000-8000-000000000000`;
    await expectError(await bob.get(unknown), 404, 'not_found');
    await expectError(await bob.patch(unknown, { data: { comment: 'x' } }), 404, 'not_found');
    await expectError(await bob.get(`${productionSilences(demo)}/not-a-uuid`), 404, 'not_found');
    await expectError(await bob.patch(unknown, { data: { comment: '' } }), 400, 'invalid_request', ['comment']);
  });
});

test.describe('changing a silence', () => {
  test('bob changes every field of a scheduled silence: version +1, updatedBy, new ETag', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    const body = {
      comment: 'Moved to the weekend',
      startsAt: '2031-03-01T10:00:00Z',
      endsAt: '2031-03-01T12:30:00.5Z',
      matchers: [
        { label: 'alertname', op: '=~', value: 'Disk.*' },
        { label: 'env', op: '!=', value: 'staging' },
      ],
    };
    const res = await bob.patch(`${productionSilences(demo)}/${before.id}`, { data: body });
    expect(res.status()).toBe(200);
    const after = (await res.json()) as Silence;
    expect(after).toMatchObject({
      ...body,
      startsAt: '2031-03-01T10:00:00.000Z',
      endsAt: '2031-03-01T12:30:00.500Z',
      state: 'scheduled',
      version: before.version + 1,
      updatedBy: { id: demo.users.bob, type: 'user', name: 'Bob Builder' },
      createdBy: before.createdBy,
      createdAt: before.createdAt,
    });
    expect(after.updatedAt).toMatch(TIMESTAMP);
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect(res.headers()['etag']).toBe(`"${after.version}"`);
    expect((await read(bob, demo, before.id)).silence).toEqual(after);
  });

  test('{} changes nothing and keeps the version; resending the same values changes nothing either', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    for (const data of [{}, { comment: before.comment, matchers: before.matchers }]) {
      const res = await bob.patch(`${productionSilences(demo)}/${before.id}`, { data });
      expect(res.status()).toBe(200);
      expect(await res.json()).toEqual(before);
      expect(res.headers()['etag']).toBe(`"${before.version}"`);
    }
  });

  test('every refusal of the shared table is 400 at its paths, and nothing changes', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    for (const refusal of SILENCE_BODY_REFUSALS) {
      const res = await bob.patch(`${productionSilences(demo)}/${before.id}`, {
        data: { ...validSilenceBody(), ...refusal.body },
      });
      const error = await expectError(res, 400, 'invalid_request', refusal.issues);
      if (refusal.message)
        expect(error.issues!.find((i) => i.path === refusal.message!.path)!.message, refusal.name).toContain(
          refusal.message.contains,
        );
    }
    expect((await read(bob, demo, before.id)).silence).toEqual(before);
  });

  test('one matcher that needs the label is enough, and the regex is anchored', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    // `foo` alone is not `.*foo.*`, so it does not match the empty string.
    const res = await bob.patch(`${productionSilences(demo)}/${before.id}`, {
      data: { matchers: [...EMPTY_MATCHING_MATCHERS, { label: 'job', op: '=~', value: 'foo' }] },
    });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as Silence).matchers).toHaveLength(5);
  });

  test('endsAt must be after startsAt, merged with the current values', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    const path = `${productionSilences(demo)}/${before.id}`;
    await expectError(await bob.patch(path, { data: { endsAt: before.startsAt } }), 400, 'invalid_request', ['endsAt']);
    await expectError(await bob.patch(path, { data: { startsAt: before.endsAt } }), 400, 'invalid_request', ['endsAt']);
    expect((await read(bob, demo, before.id)).silence).toEqual(before);
  });

  test('a startsAt in the past starts the silence now', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled start now');
    const sent = Date.now();
    const res = await bob.patch(`${productionSilences(demo)}/${before.id}`, {
      data: { startsAt: '2000-01-01T00:00:00Z' },
    });
    expect(res.status()).toBe(200);
    const after = (await res.json()) as Silence;
    expect(after.state).toBe('active');
    expect(Date.parse(after.startsAt)).toBeGreaterThanOrEqual(sent - 1000);
    expect(after.startsAt).toBe(after.updatedAt);
  });

  test('an endsAt in the past ends an active silence now', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'active end now');
    const res = await bob.patch(`${productionSilences(demo)}/${before.id}`, {
      data: { endsAt: '2000-01-01T00:00:00.000Z' },
    });
    expect(res.status()).toBe(200);
    const after = (await res.json()) as Silence;
    expect(after.state).toBe('expired');
    expect(after.endsAt).toBe(after.updatedAt);
    expect(after.startsAt).toBe(before.startsAt);
  });

  test('an active silence accepts endsAt and comment, and refuses matchers and startsAt with 409 per field', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'active edits');
    const path = `${productionSilences(demo)}/${before.id}`;
    const error = await expectError(
      await bob.patch(path, {
        data: { comment: 'ok', startsAt: inHours(1), matchers: [{ label: 'a', op: '=', value: 'b' }] },
      }),
      409,
      'silence_state_conflict',
      ['startsAt', 'matchers'],
    );
    expect(error.issues![0].message).toMatch(/active silence/);
    expect((await read(bob, demo, before.id)).silence).toEqual(before);
    const res = await bob.patch(path, { data: { comment: 'Extended', endsAt: inHours(24 * 20) } });
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({
      comment: 'Extended',
      state: 'active',
      version: before.version + 1,
      matchers: before.matchers,
    });
  });

  test('an expired silence accepts nothing: 409 with one issue per field sent', async ({ as, demo }) => {
    const ada = await as('ada');
    const expired = await demoSilence(ada, demo, 'expired');
    const path = `${productionSilences(demo)}/${expired.id}`;
    await expectError(await ada.patch(path, { data: { comment: 'again' } }), 409, 'silence_state_conflict', [
      'comment',
    ]);
    await expectError(
      await ada.patch(path, {
        data: {
          comment: 'again',
          endsAt: inHours(5),
          startsAt: inHours(1),
          matchers: [{ label: 'a', op: '=', value: 'b' }],
        },
      }),
      409,
      'silence_state_conflict',
      ['comment', 'endsAt', 'startsAt', 'matchers'],
    );
    // 412 comes before 409: a tag that is not the current one fails first; the current one reaches the 409.
    const refused = { data: { comment: 'again' } };
    await expectError(
      await ada.patch(path, { ...refused, headers: { 'If-Match': `"${expired.version + 7}"` } }),
      412,
      'precondition_failed',
    );
    await expectError(
      await ada.patch(path, { ...refused, headers: { 'If-Match': `"${expired.version}"` } }),
      409,
      'silence_state_conflict',
      ['comment'],
    );
    expect((await read(ada, demo, expired.id)).silence).toEqual(expired);
    // `{}` asks for no field, so there is nothing to refuse.
    expect((await ada.patch(path, { data: {} })).status()).toBe(200);
  });

  test('a missing or malformed body is 400 at ""', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    const path = `${productionSilences(demo)}/${before.id}`;
    await expectError(await bob.patch(path), 400, 'invalid_request', ['']);
    await expectError(
      await bob.patch(path, { data: '{"comment":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
      [''],
    );
    await expectError(await bob.patch(path, { data: [] }), 400, 'invalid_request', ['']);
  });
});
