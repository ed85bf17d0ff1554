import pg from 'pg';
import { expect, expectError, test } from '../fixtures';
import { auditPath, newestSeq, verifyChain, verifyWholeChain, type AuditVerificationJob } from '../support/audit';

// The full re-verification job (POST …/audit-events/verifications) and the quick verify's verified prefix.
// Tampering needs the database itself: those tests run on PostgreSQL only (the embedded one is the server's).

test('the whole log re-verifies as a job whose progress any request reads; the newest is `latest`', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  const head = await newestSeq(ada, demo.acme);
  const started = await ada.post(`${auditPath(demo.acme)}/verifications`);
  expect(started.status()).toBe(202);
  const job = (await started.json()) as AuditVerificationJob;
  expect(job).toMatchObject({ id: expect.any(String), total: expect.any(Number), firstBrokenSeq: null, error: null });
  expect(['running', 'succeeded']).toContain(job.state);
  expect(job.total).toBeGreaterThanOrEqual(head);
  const done = await verifyWholeChain(ada, demo.acme);
  expect(done).toMatchObject({ state: 'succeeded', firstBrokenSeq: null, error: null });
  expect(done.verified).toBe(done.total);
  expect(done.verified).toBeGreaterThanOrEqual(head);
  expect(Date.parse(done.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
  const latest = await ada.get(`${auditPath(demo.acme)}/verifications/latest`);
  expect(await latest.json()).toEqual(done);
});

test('only auditLog.read starts or reads a verification, in its own organization', async ({ as, demo }) => {
  const ada = await as('ada');
  const { id } = await verifyWholeChain(ada, demo.acme);
  const cy = await as('cy');
  await expectError(await cy.post(`${auditPath(demo.acme)}/verifications`), 403, 'access_denied');
  await expectError(await cy.get(`${auditPath(demo.acme)}/verifications/${id}`), 403, 'access_denied');
  const gil = await as('gil');
  await expectError(await gil.get(`${auditPath(demo.acme)}/verifications/${id}`), 404, 'not_found');
  // gil reads his own organization's jobs: ada's id is not one of them.
  await expectError(await gil.get(`${auditPath(demo.globex)}/verifications/${id}`), 404, 'not_found');
  await expectError(
    await ada.get(`${auditPath(demo.acme)}/verifications/00000000-0000-4000-8000-000000000000`),
    404,
    'not_found',
  );
  // Neither an id nor `latest`: no such resource, as with any malformed id in a path.
  await expectError(await ada.get(`${auditPath(demo.acme)}/verifications/newest`), 404, 'not_found');
  await expectError(await ada.get(`${auditPath(demo.acme)}/verifications`), 405, 'method_not_allowed');
});

test.describe('tampering in the database', () => {
  test.skip(!process.env.DATABASE_URL, 'needs a database this test can reach besides the server');

  /** Runs statements in one transaction of a session of the test's own. */
  async function inTransaction(statements: [string, unknown[]?][]) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('begin');
      for (const [text, values] of statements) await client.query(text, values);
      await client.query('commit');
    } finally {
      await client.end();
    }
  }
  const where = 'organization_id = $1 and seq = $2';

  test('an event updated through SQL inside the verified prefix is found by the next quick verify', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    expect((await verifyChain(ada, demo.acme)).firstBrokenSeq).toBeNull();
    const target = Math.max(1, Math.floor((await newestSeq(ada, demo.acme)) / 2));
    await inTransaction([
      [
        `update audit_events set changes = changes || '[{"field":"x","from":1,"to":2}]' where ${where}`,
        [demo.acme, target],
      ],
    ]);
    try {
      expect(await verifyChain(ada, demo.acme)).toEqual({ verified: target - 1, firstBrokenSeq: target });
    } finally {
      await inTransaction([
        [
          `update audit_events set changes = changes - (jsonb_array_length(changes) - 1) where ${where}`,
          [demo.acme, target],
        ],
      ]);
    }
    expect((await verifyChain(ada, demo.acme)).firstBrokenSeq).toBeNull();
  });

  test('with the triggers disabled the quick verify misses the change; the job finds it', async ({ as, demo }) => {
    const ada = await as('ada');
    expect((await verifyChain(ada, demo.acme)).firstBrokenSeq).toBeNull();
    const target = Math.max(1, Math.floor((await newestSeq(ada, demo.acme)) / 3));
    const quietly = (statement: string) =>
      inTransaction([
        ['alter table audit_events disable trigger all'],
        [statement, [demo.acme, target]],
        ['alter table audit_events enable trigger all'],
      ]);
    await quietly(`update audit_events set changes = changes || '[{"field":"x","from":1,"to":2}]' where ${where}`);
    try {
      expect((await verifyChain(ada, demo.acme)).firstBrokenSeq).toBeNull();
      expect(await verifyWholeChain(ada, demo.acme)).toMatchObject({
        state: 'succeeded',
        verified: target - 1,
        firstBrokenSeq: target,
      });
      // Having found it, the job leaves no verified prefix: the quick verify reports it from now on.
      expect(await verifyChain(ada, demo.acme)).toEqual({ verified: target - 1, firstBrokenSeq: target });
    } finally {
      await quietly(`update audit_events set changes = changes - (jsonb_array_length(changes) - 1) where ${where}`);
    }
    expect((await verifyWholeChain(ada, demo.acme)).firstBrokenSeq).toBeNull();
    expect((await verifyChain(ada, demo.acme)).firstBrokenSeq).toBeNull();
  });
});
