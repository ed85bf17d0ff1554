import { expect, expectError, test } from '../fixtures';
import { validSilenceBody } from '../support/silence-refusals';
import { findSilence, productionSilences, read, type Silence } from '../support/silences';

test.describe('If-Match', () => {
  test('names the current ETag: `*`, a list, and a weak tag that never matches', async ({ as, demo }) => {
    const bob = await as('bob');
    const { silence, etag } = await read(bob, demo, (await findSilence(bob, demo, 'scheduled edits')).id);
    const path = `${productionSilences(demo)}/${silence.id}`;
    const v = silence.version;

    for (const ifMatch of [`W/"${v}"`, `"${v + 1}"`, `"${v - 1}", W/"${v}"`, `"x"`]) {
      await expectError(
        await bob.patch(path, { data: { comment: `stale ${ifMatch}` }, headers: { 'If-Match': ifMatch } }),
        412,
        'precondition_failed',
      );
    }
    expect((await read(bob, demo, silence.id)).silence).toEqual(silence);

    let res = await bob.patch(path, {
      data: { comment: 'listed tag' },
      headers: { 'If-Match': `"0", ${etag} , "99"` },
    });
    expect(res.status()).toBe(200);
    expect(res.headers()['etag']).toBe(`"${v + 1}"`);
    res = await bob.patch(path, { data: { comment: 'any tag' }, headers: { 'If-Match': '*' } });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as Silence).version).toBe(v + 2);
  });

  test('a malformed If-Match or Idempotency-Key is 400 at the header name, with the body issues', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled edits');
    const path = `${productionSilences(demo)}/${before.id}`;
    for (const ifMatch of [`${before.version}`, `"${before.version}`, 'W/', `"1" "2"`]) {
      await expectError(
        await bob.patch(path, { data: { comment: 'x' }, headers: { 'If-Match': ifMatch } }),
        400,
        'invalid_request',
        ['If-Match'],
      );
    }
    for (const key of ['has space', 'é', 'k'.repeat(201)]) {
      await expectError(
        await bob.patch(path, { data: { comment: 'x' }, headers: { 'Idempotency-Key': key } }),
        400,
        'invalid_request',
        ['Idempotency-Key'],
      );
    }
    await expectError(
      await bob.patch(path, { data: { comment: '' }, headers: { 'Idempotency-Key': 'a b', 'If-Match': 'nope' } }),
      400,
      'invalid_request',
      ['comment', 'Idempotency-Key', 'If-Match'],
    );
    expect((await read(bob, demo, before.id)).silence).toEqual(before);
  });

  test('a 412 on an unknown silence is still 404 first', async ({ as, demo }) => {
    const bob = await as('bob');
    await expectError(
      await bob.patch(`${productionSilences(demo)}/00000000-0000-4000-8000-000000000000`, {
        data: { comment: 'x' },
        headers: { 'If-Match': '"1"' },
      }),
      404,
      'not_found',
    );
  });

  test('20 PATCHes naming the same ETag at once: exactly one 200, nineteen 412', async ({ as, demo }) => {
    const bob = await as('bob');
    const { silence, etag } = await read(bob, demo, (await findSilence(bob, demo, 'scheduled race')).id);
    const path = `${productionSilences(demo)}/${silence.id}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        bob.patch(path, { data: { comment: `racer ${i}` }, headers: { 'If-Match': etag } }),
      ),
    );
    const statuses = answers.map((r) => r.status()).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(412)]);
    for (const res of answers.filter((r) => r.status() === 412)) await expectError(res, 412, 'precondition_failed');
    const winner = (await answers.find((r) => r.status() === 200)!.json()) as Silence;
    const after = (await read(bob, demo, silence.id)).silence;
    expect(after.version).toBe(silence.version + 1);
    expect(after.comment).toBe(winner.comment);
  });
});

test.describe('Idempotency-Key', () => {
  test('a retry gets the stored response with Idempotent-Replayed, and runs nothing again', async ({ as, demo }) => {
    const bob = await as('bob');
    const { silence, etag } = await read(bob, demo, (await findSilence(bob, demo, 'scheduled idempotency')).id);
    const path = `${productionSilences(demo)}/${silence.id}`;
    const key = `replay-${Date.now()}`;
    const send = (data: object, ifMatch = etag) =>
      bob.patch(path, { data, headers: { 'Idempotency-Key': key, 'If-Match': ifMatch } });

    const first = await send({ comment: 'once' });
    expect(first.status()).toBe(200);
    expect(first.headers()['idempotent-replayed']).toBeUndefined();
    const firstBody = await first.text();

    // The silence changed since (version +1), so re-running would be a 412: the replay proves it did not run.
    const again = await send({ comment: 'once' });
    expect(again.status()).toBe(200);
    expect(again.headers()['idempotent-replayed']).toBe('true');
    expect(again.headers()['etag']).toBe(first.headers()['etag']);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers()['x-request-id']).not.toBe(first.headers()['x-request-id']);
    expect((await read(bob, demo, silence.id)).silence.version).toBe(silence.version + 1);

    await expectError(await send({ comment: 'something else' }), 409, 'idempotency_conflict');
    await expectError(await send({ comment: 'once' }, '*'), 409, 'idempotency_conflict');
    expect((await read(bob, demo, silence.id)).silence.comment).toBe('once');
  });

  test('keys are scoped to the principal: the same key from ada runs her own request', async ({ as, demo }) => {
    const bob = await as('bob');
    const ada = await as('ada');
    const before = await findSilence(bob, demo, 'scheduled idempotency');
    const path = `${productionSilences(demo)}/${before.id}`;
    const key = `shared-${Date.now()}`;
    expect(
      (await bob.patch(path, { data: { comment: 'bob said' }, headers: { 'Idempotency-Key': key } })).status(),
    ).toBe(200);
    const res = await ada.patch(path, { data: { comment: 'ada said' }, headers: { 'Idempotency-Key': key } });
    expect(res.status()).toBe(200);
    expect(res.headers()['idempotent-replayed']).toBeUndefined();
    expect(await res.json()).toMatchObject({
      comment: 'ada said',
      version: before.version + 2,
      updatedBy: { id: demo.users.ada },
    });
  });

  test('keys are scoped to the path and method: the same key on another silence, or as a DELETE, runs that request', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const first = await findSilence(bob, demo, 'scheduled idempotency');
    const created = await bob.post(productionSilences(demo), { data: validSilenceBody(`scoped-${Date.now()}`) });
    expect(created.status(), await created.text()).toBe(201);
    const other = (await created.json()) as Silence;
    const key = `scoped-${Date.now()}`;
    const headers = { 'Idempotency-Key': key };
    const data = { comment: 'the same body' };
    const onFirst = await bob.patch(`${productionSilences(demo)}/${first.id}`, { data, headers });
    expect(onFirst.status()).toBe(200);
    const onOther = await bob.patch(`${productionSilences(demo)}/${other.id}`, { data, headers });
    expect(onOther.status()).toBe(200);
    expect(onOther.headers()['idempotent-replayed']).toBeUndefined();
    expect(await onOther.json()).toMatchObject({ id: other.id, comment: 'the same body', version: other.version + 1 });
    // The same key and path, another method: the DELETE runs (the silence ends) instead of replaying the PATCH.
    const ended = await bob.delete(`${productionSilences(demo)}/${other.id}`, { headers });
    expect(ended.status()).toBe(200);
    expect(ended.headers()['idempotent-replayed']).toBeUndefined();
    expect(((await ended.json()) as Silence).state).toBe('expired');
  });

  test('a 4xx answer is stored and replayed too', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled idempotency');
    const path = `${productionSilences(demo)}/${before.id}`;
    const headers = { 'Idempotency-Key': `stale-${Date.now()}`, 'If-Match': '"0"' };
    const first = await bob.patch(path, { data: { comment: 'stale' }, headers });
    await expectError(first, 412, 'precondition_failed');
    const again = await bob.patch(path, { data: { comment: 'stale' }, headers });
    await expectError(again, 412, 'precondition_failed');
    expect(again.headers()['idempotent-replayed']).toBe('true');
  });

  test('the same keyed request 10 times at once runs once; every answer is identical or in progress', async ({
    as,
    demo,
  }) => {
    const bob = await as('bob');
    const before = await findSilence(bob, demo, 'scheduled idempotency');
    const path = `${productionSilences(demo)}/${before.id}`;
    const headers = { 'Idempotency-Key': `burst-${Date.now()}` };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        bob.patch(path, { data: { comment: `burst ${headers['Idempotency-Key']}` }, headers }),
      ),
    );
    const done = answers.filter((r) => r.status() === 200);
    expect(done.length).toBeGreaterThanOrEqual(1);
    const bodies = new Set(await Promise.all(done.map((r) => r.text())));
    expect(bodies.size).toBe(1);
    expect(done.filter((r) => r.headers()['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const res of answers.filter((r) => r.status() !== 200)) {
      await expectError(res, 409, 'idempotency_in_progress');
      expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
    }
    const after = (await read(bob, demo, before.id)).silence;
    expect(after.version).toBe(before.version + 1);
    expect(JSON.parse([...bodies][0])).toEqual(after);
  });
});
