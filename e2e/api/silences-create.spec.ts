import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, expectError, test } from '../fixtures';
import { auditEventsAbout } from '../support/audit';
import { SILENCE_BODY_REFUSALS, validSilenceBody } from '../support/silence-refusals';
import { findSilence, inHours, listAll, productionSilences, read, TIMESTAMP, type Silence } from '../support/silences';
import { globexSilences, globexSilenceUnchanged, stagingSilences } from '../support/unreachable-silences';

/** Every silence of the project, through every page, so a test can prove nothing was created. */
async function countSilences(ctx: APIRequestContext, path: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const res = await ctx.get(`${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status()).toBe(200);
    const page = (await res.json()) as { items: Silence[]; nextCursor: string | null };
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

const unique = (what: string) => `${what} ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function create(ctx: APIRequestContext, path: string, data: object, headers: Record<string, string> = {}) {
  const res = await ctx.post(path, { data, headers });
  expect(res.status(), await res.text()).toBe(201);
  return { res, silence: (await res.json()) as Silence };
}

test.describe('creating a silence', () => {
  test('bob creates one starting now: 201, every field, ETag "1", and a Location that reads it back', async ({
    as,
    demo,
    baseURL,
  }) => {
    const bob = await as('bob');
    const body = { ...validSilenceBody(unique('disk full on db-3')), endsAt: inHours(4) };
    const sent = Date.now();
    const { res, silence } = await create(bob, productionSilences(demo), body);
    expect(silence).toMatchObject({
      comment: body.comment,
      matchers: body.matchers,
      endsAt: body.endsAt,
      state: 'active',
      projectId: demo.production,
      version: 1,
      createdBy: { id: demo.users.bob, type: 'user' },
      updatedBy: { id: demo.users.bob, type: 'user' },
    });
    expect(silence.slug).toMatch(/^sil_[a-z0-9]{12}$/);
    expect(silence.resourceName).toBe(`organizations/${demo.acme}/projects/${demo.production}/silences/${silence.id}`);
    for (const at of [silence.startsAt, silence.createdAt, silence.updatedAt]) expect(at).toMatch(TIMESTAMP);
    expect(Date.parse(silence.startsAt)).toBeGreaterThanOrEqual(sent - 1000);
    expect(silence.startsAt).toBe(silence.createdAt);
    expect(res.headers()['etag']).toBe('"1"');
    const location = res.headers()['location'];
    expect(location).toBe(`${productionSilences(demo)}/${silence.id}`);
    expect(new URL(location, baseURL).pathname).toBe(location);
    const again = await bob.get(location);
    expect(await again.json()).toEqual(silence);
    expect(again.headers()['etag']).toBe('"1"');
  });

  test('a startsAt in the past starts it now; one in the future schedules it exactly then', async ({ as, demo }) => {
    const bob = await as('bob');
    const sent = Date.now();
    const past = await create(bob, productionSilences(demo), {
      ...validSilenceBody(unique('past start')),
      startsAt: '2001-01-01T00:00:00Z',
    });
    expect(past.silence.state).toBe('active');
    expect(Date.parse(past.silence.startsAt)).toBeGreaterThanOrEqual(sent - 1000);
    const future = await create(bob, productionSilences(demo), {
      ...validSilenceBody(unique('maintenance window')),
      startsAt: '2036-05-01T22:00:00.5Z',
    });
    expect(future.silence).toMatchObject({ state: 'scheduled', startsAt: '2036-05-01T22:00:00.500Z' });
  });

  test('every refusal of the update is a refusal of the create, with the same issues, and nothing is created', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const path = productionSilences(demo);
    const scheduled = await findSilence(bob, demo, 'scheduled edits');
    const before = await countSilences(bob, path);
    for (const refusal of SILENCE_BODY_REFUSALS) {
      const data = { ...validSilenceBody(), ...refusal.body };
      const created = await expectError(await bob.post(path, { data }), 400, 'invalid_request', refusal.issues);
      const updated = await expectError(await bob.patch(`${path}/${scheduled.id}`, { data }), 400, 'invalid_request');
      expect(created.issues, refusal.name).toEqual(updated.issues);
      if (refusal.message)
        expect(created.issues!.find((i) => i.path === refusal.message!.path)!.message).toContain(
          refusal.message.contains,
        );
    }
    expect(await countSilences(bob, path)).toBe(before);
    expect((await read(bob, demo, scheduled.id)).silence).toEqual(scheduled);
  });

  test('comment, matchers and endsAt are required; a missing body or an end already past is 400', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const path = productionSilences(demo);
    const before = await countSilences(bob, path);
    await expectError(await bob.post(path, { data: {} }), 400, 'invalid_request', ['comment', 'endsAt', 'matchers']);
    await expectError(await bob.post(path), 400, 'invalid_request', ['']);
    await expectError(await bob.post(path, { data: [] }), 400, 'invalid_request', ['']);
    const pastEnd = await expectError(
      await bob.post(path, { data: { ...validSilenceBody(), endsAt: '2001-01-01T00:00:00Z' } }),
      400,
      'invalid_request',
      ['endsAt'],
    );
    expect(pastEnd.issues![0].message).toContain('after the start');
    expect(await countSilences(bob, path)).toBe(before);
  });

  test('an Idempotency-Key replays the 201 and creates once; another body under it is 409', async ({ as, demo }) => {
    const bob = await as('bob');
    const path = productionSilences(demo);
    const key = unique('create').replace(/ /g, '-');
    const body = validSilenceBody(unique('idempotent create'));
    const before = await countSilences(bob, path);
    const first = await create(bob, path, body, { 'Idempotency-Key': key });
    const again = await bob.post(path, { data: body, headers: { 'Idempotency-Key': key } });
    expect(again.status()).toBe(201);
    expect(again.headers()['idempotent-replayed']).toBe('true');
    expect(await again.json()).toEqual(first.silence);
    expect(again.headers()['etag']).toBe(first.res.headers()['etag']);
    expect(again.headers()['location']).toBe(first.res.headers()['location']);
    await expectError(
      await bob.post(path, { data: { ...body, comment: 'another' }, headers: { 'Idempotency-Key': key } }),
      409,
      'idempotency_conflict',
    );
    await expectError(
      await bob.post(path, { data: body, headers: { 'Idempotency-Key': 'has space' } }),
      400,
      'invalid_request',
      ['Idempotency-Key'],
    );
    expect(await countSilences(bob, path)).toBe(before + 1);

    // Ten at once under a new key: one silence, every answer the same 201 or "in progress".
    const burstKey = `${key}-burst`;
    const burstBody = validSilenceBody(unique('burst create'));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => bob.post(path, { data: burstBody, headers: { 'Idempotency-Key': burstKey } })),
    );
    const done = answers.filter((r) => r.status() === 201);
    expect(new Set(await Promise.all(done.map((r) => r.text()))).size).toBe(1);
    for (const res of answers.filter((r) => r.status() !== 201)) await expectError(res, 409, 'idempotency_in_progress');
    expect((await listAll(bob, path)).filter((s) => s.comment === burstBody.comment)).toHaveLength(1);
  });

  test('who may: cy and the deploy bot 403 (before 400); Staging and other organizations 404', async ({
    as,
    demo,
    fixtures,
  }) => {
    const path = productionSilences(demo);
    const cy = await as('cy');
    const bot = await bearer(fixtures.keys.deployBot);
    const ada = await as('ada');
    const gil = await as('gil');
    const before = await countSilences(ada, path);
    for (const ctx of [cy, bot]) {
      await expectError(await ctx.post(path, { data: validSilenceBody('not mine') }), 403, 'access_denied');
      await expectError(await ctx.post(path, { data: { comment: '' } }), 403, 'access_denied');
    }
    await bot.dispose();
    // Alerting is off on Staging: 404 even for an admin, even for a valid body.
    await expectError(await ada.post(stagingSilences(demo), { data: validSilenceBody() }), 404, 'not_found');
    await expectError(await gil.post(path, { data: validSilenceBody() }), 404, 'not_found');
    await expectError(await ada.post(globexSilences(demo), { data: validSilenceBody() }), 404, 'not_found');
    expect(await countSilences(ada, path)).toBe(before);
  });
});

test.describe('expiring a silence', () => {
  test('an active silence ends now; its start stays; a second DELETE is 409', async ({ as, demo }) => {
    const bob = await as('bob');
    const { silence: created } = await create(bob, productionSilences(demo), validSilenceBody(unique('to end')));
    const path = `${productionSilences(demo)}/${created.id}`;
    const sent = Date.now();
    const res = await bob.delete(path);
    expect(res.status()).toBe(200);
    const expired = (await res.json()) as Silence;
    expect(expired).toMatchObject({ state: 'expired', startsAt: created.startsAt, version: 2 });
    expect(Date.parse(expired.endsAt)).toBeGreaterThanOrEqual(sent - 1000);
    expect(expired.endsAt).toBe(expired.updatedAt);
    expect(res.headers()['etag']).toBe('"2"');
    expect((await read(bob, demo, created.id)).silence).toEqual(expired);

    const again = await expectError(await bob.delete(path), 409, 'silence_state_conflict');
    expect(again.message).toContain('already expired');
    expect((await read(bob, demo, created.id)).silence).toEqual(expired);
  });

  test('a scheduled silence gets startsAt = endsAt = now', async ({ as, demo }) => {
    const bob = await as('bob');
    const { silence: created } = await create(bob, productionSilences(demo), {
      ...validSilenceBody(unique('never needed')),
      startsAt: inHours(24),
    });
    expect(created.state).toBe('scheduled');
    const res = await bob.delete(`${productionSilences(demo)}/${created.id}`);
    expect(res.status()).toBe(200);
    const expired = (await res.json()) as Silence;
    expect(expired.state).toBe('expired');
    expect(expired.startsAt).toBe(expired.endsAt);
    expect(expired.endsAt).toBe(expired.updatedAt);
    expect(Date.parse(expired.endsAt)).toBeLessThan(Date.parse(created.startsAt));
  });

  test('If-Match: a stale ETag is 412 and ends nothing; the current one (or *) ends it', async ({ as, demo }) => {
    const bob = await as('bob');
    const { silence: created } = await create(bob, productionSilences(demo), validSilenceBody(unique('guarded')));
    const path = `${productionSilences(demo)}/${created.id}`;
    const changed = await bob.patch(path, { data: { comment: `${created.comment} (edited)` } });
    expect(changed.status()).toBe(200);
    for (const ifMatch of ['"1"', 'W/"2"']) {
      await expectError(await bob.delete(path, { headers: { 'If-Match': ifMatch } }), 412, 'precondition_failed');
    }
    await expectError(await bob.delete(path, { headers: { 'If-Match': 'nope' } }), 400, 'invalid_request', [
      'If-Match',
    ]);
    expect((await read(bob, demo, created.id)).silence.state).toBe('active');
    const res = await bob.delete(path, { headers: { 'If-Match': `"0", ${changed.headers()['etag']}` } });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as Silence).state).toBe('expired');
    // 412 comes before 409: an expired silence with a stale tag is still a failed precondition.
    await expectError(await bob.delete(path, { headers: { 'If-Match': '"2"' } }), 412, 'precondition_failed');
    await expectError(await bob.delete(path, { headers: { 'If-Match': '*' } }), 409, 'silence_state_conflict');
  });

  test('who may: cy 403; unknown, Staging and Globex ids 404', async ({ as, demo }) => {
    const bob = await as('bob');
    const cy = await as('cy');
    const ada = await as('ada');
    const gil = await as('gil');
    const { silence: created } = await create(bob, productionSilences(demo), validSilenceBody(unique('cy tries')));
    await expectError(await cy.delete(`${productionSilences(demo)}/${created.id}`), 403, 'access_denied');
    await expectError(await gil.delete(`${productionSilences(demo)}/${created.id}`), 404, 'not_found');
    expect((await read(bob, demo, created.id)).silence).toEqual(created);
    const someId = '00000000-0000-4000-8000-000000000000';
    await expectError(await bob.delete(`${productionSilences(demo)}/${someId}`), 404, 'not_found');
    await expectError(await bob.delete(`${productionSilences(demo)}/not-a-uuid`), 404, 'not_found');
    await expectError(await ada.delete(`${stagingSilences(demo)}/${someId}`), 404, 'not_found');
    await globexSilenceUnchanged(gil, demo, async (globexSilence) =>
      expectError(await ada.delete(`${productionSilences(demo)}/${globexSilence.id}`), 404, 'not_found'),
    );
  });
});

test.describe('audit events of create and expire', () => {
  test('one silence.created and one silence.expired, with bob as the actor and the changed times', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const { silence: created } = await create(bob, productionSilences(demo), validSilenceBody(unique('audited')));
    const expired = (await (await bob.delete(`${productionSilences(demo)}/${created.id}`)).json()) as Silence;
    await expectError(await bob.delete(`${productionSilences(demo)}/${created.id}`), 409, 'silence_state_conflict');
    const events = await auditEventsAbout(await as('ada'), demo.acme, created.id);
    expect(events.map((e) => e.action)).toEqual(['silence.created', 'silence.expired']);
    for (const event of events) {
      expect(event.actor).toMatchObject({ type: 'user', id: demo.users.bob, via: 'session', credential: null });
      expect(event.target).toEqual({ type: 'silence', id: created.id, name: created.slug });
      expect(event.projectId).toBe(demo.production);
      expect(event.context.requestId).toMatch(/^req_/);
    }
    expect(events[0].changes).toContainEqual({ field: 'comment', from: null, to: created.comment });
    expect(events[1].changes).toEqual([{ field: 'endsAt', from: created.endsAt, to: expired.endsAt }]);
  });
});
