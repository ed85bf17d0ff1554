import { bearer, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { testOneRateLimitWindow, twoInstances } from '../support/two-instances';
import pg from 'pg';
import { auditEvents, newestSeq, verifyChain } from '../support/audit';
import { subPath, subsPath, type Sub } from '../support/subscriptions';

// Several stateless instances on one PostgreSQL: what one instance does, the other must honour.
test.describe('two instances on one PostgreSQL', () => {
  const two = twoInstances([E2E.port + 20, E2E.port + 21], () => ({
    RATE_LIMIT_REQUESTS: '30',
    RATE_LIMIT_NAMESPACE: `two-${Date.now()}-`,
  }));
  const ctx = two.ctx;

  testOneRateLimitWindow(two);

  test('a key revoked through one instance is refused by the other within a second', async ({ demo }) => {
    const bob = await ctx(sessionFor('bob', two.a.url));
    const { secret, apiKey } = await (
      await bob.post(`/v1/organizations/${demo.acme}/api-keys`, { data: { name: 'two-instance revoke' } })
    ).json();
    const onB = await ctx(bearer(secret, two.b.url));
    expect((await onB.get('/v1/organizations')).status()).toBe(200); // now cached on B
    expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${apiKey.id}`)).status()).toBe(204);
    await expect
      .poll(async () => (await onB.get('/v1/organizations')).status(), { timeout: 1_000, intervals: [50] })
      .toBe(401);
  });

  test('an Idempotency-Key used on one instance replays on the other, and ETags hold across both', async ({ demo }) => {
    const bobA = await ctx(sessionFor('bob', two.a.url));
    const bobB = await ctx(sessionFor('bob', two.b.url));
    const list = await (
      await bobA.get(`/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences?state=active`)
    ).json();
    const silence = list.items[0];
    const path = `/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences/${silence.id}`;
    const etag = (await bobA.get(path)).headers().etag;

    const key = `two-instances-${Date.now()}`;
    const body = { comment: `changed through A at ${Date.now()}` };
    const first = await bobA.patch(path, { data: body, headers: { 'Idempotency-Key': key, 'If-Match': etag } });
    expect(first.status()).toBe(200);
    const replay = await bobB.patch(path, { data: body, headers: { 'Idempotency-Key': key, 'If-Match': etag } });
    expect(replay.status()).toBe(200);
    expect(replay.headers()['idempotent-replayed']).toBe('true');
    expect(await replay.json()).toEqual(await first.json());

    // The old ETag is stale on B too, and two racing writers with the new one: exactly one wins.
    expect((await bobB.patch(path, { data: { comment: 'stale' }, headers: { 'If-Match': etag } })).status()).toBe(412);
    const current = first.headers().etag;
    const raced = await Promise.all([
      bobA.patch(path, { data: { comment: 'race A' }, headers: { 'If-Match': current } }),
      bobB.patch(path, { data: { comment: 'race B' }, headers: { 'If-Match': current } }),
    ]);
    expect(raced.map((r) => r.status()).sort()).toEqual([200, 412]);
  });

  test('audit writers on both instances at once leave one gapless chain that verifies; an edited event is found', async ({
    demo,
  }) => {
    const adaA = await ctx(sessionFor('ada', two.a.url));
    // Not deploy-bot: its window of 30 requests went to the rate-limit test above.
    const adaB = await ctx(sessionFor('ada', two.b.url));
    const bobA = await ctx(sessionFor('bob', two.a.url));
    const subs = (await (await adaA.get(`${subsPath(demo.acme, demo.production)}?limit=10`)).json()).items as Sub[];
    const sub = subs.find((s) => s.target.kind === 'https')!;
    const before = await newestSeq(adaA, demo.acme);
    // 24 changes, alternating instances and principals, all in flight together.
    const writes = Array.from({ length: 24 }, (_, i) =>
      (i % 2 ? adaB : bobA).patch(subPath(sub), { data: { batchSize: (i % 10) + 1 } }),
    );
    for (const res of await Promise.all(writes)) expect(res.status()).toBe(200);
    const events = await auditEvents(adaA, demo.acme, `&targetId=${sub.id}`);
    const seqs = events.filter((e) => e.seq > before).map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(0);
    const all = (await auditEvents(adaA, demo.acme)).filter((e) => e.seq > before).map((e) => e.seq);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => before + all.length - i));
    const verified = await verifyChain(adaA, demo.acme);
    expect(verified.firstBrokenSeq).toBeNull();
    expect(verified.verified).toBe(before + all.length);

    // Tampering: one stored event edited in the database; verify names its seq, and passes once it is restored.
    const target = seqs[Math.floor(seqs.length / 2)];
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
    const where = 'organization_id = $1 and seq = $2';
    const [{ changes }] = (await pool.query(`select changes from audit_events where ${where}`, [demo.acme, target]))
      .rows;
    try {
      await pool.query(`update audit_events set changes = '[]'::jsonb where ${where}`, [demo.acme, target]);
      expect(await verifyChain(adaA, demo.acme)).toEqual({ verified: target - 1, firstBrokenSeq: target });
    } finally {
      await pool.query(`update audit_events set changes = $3::jsonb where ${where}`, [
        demo.acme,
        target,
        JSON.stringify(changes),
      ]);
      await pool.end();
    }
    expect((await verifyChain(adaA, demo.acme)).firstBrokenSeq).toBeNull();
  });

  test('a create racing one Idempotency-Key on both instances makes exactly one silence', async ({ demo }) => {
    // gil in Globex: bob's and ada's windows of 30 requests went to the audit writers above.
    const gilA = await ctx(sessionFor('gil', two.a.url));
    const gilB = await ctx(sessionFor('gil', two.b.url));
    const path = `/v1/organizations/${demo.globex}/projects/${demo.globexProject}/obs/silences`;
    const key = `two-instances-create-${Date.now()}`;
    const body = {
      comment: `raced create ${key}`,
      matchers: [{ label: 'alertname', op: '=', value: 'Raced' }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? gilB : gilA).post(path, { data: body, headers: { 'Idempotency-Key': key } }),
      ),
    );
    const created = answers.filter((r) => r.status() === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((r) => r.headers()['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(new Set(await Promise.all(created.map((r) => r.text()))).size).toBe(1);
    for (const res of answers.filter((r) => r.status() !== 201)) {
      expect(res.status()).toBe(409);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('idempotency_in_progress');
    }
    // Once the first has finished, either instance replays it.
    const replay = await gilB.post(path, { data: body, headers: { 'Idempotency-Key': key } });
    expect(replay.status()).toBe(201);
    expect(replay.headers()['idempotent-replayed']).toBe('true');
    const list = (await (await gilA.get(`${path}?limit=100`)).json()) as { items: { comment: string }[] };
    expect(list.items.filter((s) => s.comment === body.comment)).toHaveLength(1);
  });
});
