/**
 * `npx tsx bench/audit-write-cost.ts`: the database side of the hot PATCH, in process on PGlite (no HTTP, no
 * other load in the ratio): the subscription batchSize change as one UPDATE (before the audit log) against
 * the same change through `updateSubscription` (the change and its audit event in one statement, see
 * `auditEventCtes`), and the silence comment likewise. Figures are per change, median of alternating rounds.
 */
import '../scripts/settings-first';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { SYSTEM_ACTOR } from '../lib/audit/source';
import { closeDb, getDb } from '../lib/db/client';
import { seedDemoData } from '../server/demo/seed';
import * as t from '../lib/db/schema';
import { updateSilence } from '../lib/silences/service';
import { updateSubscription } from '../lib/subscriptions/service';

const ROUNDS = 5;
const PER_ROUND = 200;
const source = { actor: SYSTEM_ACTOR, context: { requestId: 'req_bench', ip: '127.0.0.1', userAgent: 'bench' } };

process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'bench-audit-cost-'));
process.env.SEED_DEMO = '0';
const db = await getDb();
await seedDemoData(db);
const [sub] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.state, 'paused'));
const [silence] = await db
  .select()
  .from(t.silences)
  .where(sql`${t.silences.endsAt} > now() + interval '1 day'`);
const scope = { organizationId: sub.organizationId, projectId: sub.projectId };
let n = 0;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const began = process.hrtime.bigint();
  for (let i = 0; i < PER_ROUND; i++) await run();
  return Number(process.hrtime.bigint() - began) / 1e6 / PER_ROUND;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function compare(name: string, before: () => Promise<unknown>, after: () => Promise<unknown>) {
  const a: number[] = [];
  const b: number[] = [];
  await timed(before);
  await timed(after);
  for (let r = 0; r < ROUNDS; r++) {
    a.push(await timed(before));
    b.push(await timed(after));
  }
  const [x, y] = [median(a), median(b)];
  console.log(
    `${name}: ${x.toFixed(3)} ms without an event, ${y.toFixed(3)} ms with it (+${(y - x).toFixed(3)} ms, ×${(y / x).toFixed(2)})`,
  );
}

await compare(
  'subscription batchSize',
  // The pre-audit fast path: one UPDATE, no transaction.
  () =>
    db
      .update(t.subscriptions)
      .set({ batchSize: (++n % 10) + 1, updatedAt: new Date() })
      .where(and(eq(t.subscriptions.id, sub.id), eq(t.subscriptions.organizationId, scope.organizationId)))
      .returning(),
  () => updateSubscription(scope, sub.id, { batchSize: (++n % 10) + 1 }, source),
);
await compare(
  'silence comment',
  () =>
    db
      .update(t.silences)
      .set({ comment: `bench ${++n}`, version: sql`${t.silences.version} + 1`, updatedAt: new Date() })
      .where(and(eq(t.silences.id, silence.id), sql`${t.silences.endsAt} > now()`))
      .returning(),
  () =>
    updateSilence({
      scope: { organizationId: silence.organizationId, projectId: silence.projectId },
      silenceId: silence.id,
      body: { comment: `bench ${++n}` },
      ifMatch: null,
      principal: { type: 'user', id: silence.createdById },
      source,
    }),
);
await closeDb();
rmSync(process.env.DATA_DIR, { recursive: true, force: true });
