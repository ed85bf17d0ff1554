import { inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { silenceState } from './schema';
import { countSilences } from './list-service';

const HOUR = 3_600_000;
const state = fc.constantFrom('scheduled', 'active', 'expired');
/** Batches of silences (each inserted by one statement, across two projects), then which of them to delete. */
const history = fc.record({
  batches: fc.array(fc.array(fc.record({ project: fc.nat(1), state }), { maxLength: 6 }), {
    minLength: 1,
    maxLength: 5,
  }),
  deleted: fc.array(fc.nat(), { maxLength: 6 }),
});

function window(of: 'scheduled' | 'active' | 'expired', now: number) {
  if (of === 'scheduled') return { startsAt: new Date(now + HOUR), endsAt: new Date(now + 2 * HOUR) };
  if (of === 'active') return { startsAt: new Date(now - HOUR), endsAt: new Date(now + HOUR) };
  return { startsAt: new Date(now - 2 * HOUR), endsAt: new Date(now - HOUR) };
}

function countsSuite() {
  it('the tab counts equal a count of every silence by its state, whatever was inserted and deleted', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(history, async ({ batches, deleted }) => {
        const projects = [(await newTestProject('Counts A')).scope, (await newTestProject('Counts B')).scope];
        const now = Date.now();
        const by = { type: 'bot' as const, id: crypto.randomUUID() };
        const ids: string[] = [];
        for (const batch of batches.filter((b) => b.length > 0)) {
          const rows = await db
            .insert(t.silences)
            .values(
              batch.map((s) => ({
                ...projects[s.project],
                slug: `sil_${crypto.randomUUID()}`,
                comment: 'counted',
                matchers: [{ label: 'a', op: '=' as const, value: 'b' }],
                ...window(s.state, now),
                createdByType: by.type,
                createdById: by.id,
                updatedByType: by.type,
                updatedById: by.id,
              })),
            )
            .returning({ id: t.silences.id });
          ids.push(...rows.map((r) => r.id));
        }
        const gone = ids.length ? deleted.map((i) => ids[i % ids.length]) : [];
        if (gone.length) await db.delete(t.silences).where(inArray(t.silences.id, gone));
        const at = new Date(now);
        for (const scope of projects) {
          const left = await db
            .select()
            .from(t.silences)
            .where(
              sql`${t.silences.organizationId} = ${scope.organizationId} and ${t.silences.projectId} = ${scope.projectId}`,
            );
          const truth = { scheduled: 0, active: 0, expired: 0 };
          for (const s of left) truth[silenceState(s, at)]++;
          expect(await countSilences(scope, at)).toEqual(truth);
        }
      }),
      { numRuns: 25 },
    );
  });
}

await onBothDatabases('silence counts', 'silence-counts', countsSuite);
