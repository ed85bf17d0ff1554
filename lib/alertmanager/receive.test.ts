import { describe, expect, it } from 'vitest';
import { newTestProject, scratchPostgres } from '../../server/testing/test-database';
import { unresolvedAlerts } from '../alerts/list-service';
import { lastPostAt } from '../alerts/posts-service';
import { getDb } from '../db/client';
import { lockProjectMuting } from '../silences/muting-service';
import { postAlerts } from './receive';

const postgres = await scratchPostgres('alert_receive');

const NOW = new Date('2030-06-01T12:00:00.000Z');
const body = JSON.stringify([
  { labels: { alertname: 'Disk' }, startsAt: NOW.toISOString(), endsAt: new Date(+NOW + 300_000).toISOString() },
]);

// Sessions of this database waiting for an advisory lock: the post's store, queued behind the test's transaction.
async function waitingForAdvisoryLock(): Promise<number> {
  const { rows } = await postgres.admin.query(
    "select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event = 'advisory'",
    [postgres.database],
  );
  return rows[0].n;
}

describe.skipIf(!postgres.reachable)('a post of alerts', () => {
  postgres.use();

  it('is noted as the last post only once what it brought is stored', async () => {
    // The console refreshes its alert lists when it sees a new post's time: seen before the alerts are stored,
    // the refresh would find none and the page would wait for the next one (30 s) to show them.
    const { scope } = await newTestProject('Receive order');
    const db = await getDb();
    let posted: Promise<Response> | undefined;
    await db.transaction(async (tx) => {
      // A silence being written in the project holds its muting lock: the post's store waits for it.
      await lockProjectMuting(tx, scope);
      posted = postAlerts(scope, body, NOW);
      await expect.poll(waitingForAdvisoryLock).toBe(1);
      expect(await lastPostAt(scope)).toBeNull();
    });
    expect((await posted!).status).toBe(200);
    expect(await lastPostAt(scope)).toBe(NOW.toISOString());
    expect((await unresolvedAlerts(scope, NOW)).map((a) => a.labels.alertname)).toEqual(['Disk']);
  });
});
