import { and, desc, eq, gt, ilike, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { getDb } from '../db/client';
import { PLANNER_FENCE, projectWhere } from '../db/statement';
import * as t from '../db/schema';
import { containsPattern, INDEXED_SEARCH_MIN, searchStatement, searchValue } from '../db/search';
import { afterCursor, beyondPosition, decodeCursor, toPage, type Page } from '../http/pagination';
import type { Silence, SilenceCounts, SilenceState } from './schema';
import { silenceRow, toSilence, type SilenceRow, type SilenceScope } from './service';
import { SILENCE_SEARCH_WALK } from './keys';

function stateCondition(state: SilenceState, now: Date | SQLWrapper): SQL | undefined {
  if (state === 'scheduled') return gt(t.silences.startsAt, now);
  if (state === 'active') return and(lte(t.silences.startsAt, now), gt(t.silences.endsAt, now));
  return lte(t.silences.endsAt, now);
}

/**
 * The project's whole stretch of `silences_project_idx`, as a range of its four columns: the scope's equalities
 * alone let a planner without statistics (rows that just arrived) expect a handful of rows and sort them, off
 * `silences_project_ends_idx`; over a range it expects many, which a walk of this index serves in order.
 */
const projectRange = (scope: { organizationId: unknown; projectId: unknown }) => {
  const key = sql`(${t.silences.organizationId}, ${t.silences.projectId}, ${t.silences.createdAt}, ${t.silences.id})`;
  const at = (time: string, id: string) =>
    sql`(${scope.organizationId}::uuid, ${scope.projectId}::uuid, ${time}::timestamptz, ${id}::uuid)`;
  return sql`${key} > ${at('-infinity', '00000000-0000-0000-0000-000000000000')} and ${key} < ${at('infinity', 'ffffffff-ffff-ffff-ffff-ffffffffffff')}`;
};

/**
 * A search over all silences or the expired ones (`searchStatement`, lib/db/search.ts): one statement per shape
 * (expired or not, after a cursor or not, through the trigram index or the walk alone), placeholders filled per call.
 */
function searchStatementOf(expired: boolean, afterPosition: boolean, indexed: boolean) {
  const uuid = (name: string) => searchValue(name, 'uuid');
  const match = ilike(t.silences.searchText, searchValue('contains'));
  return searchStatement({
    table: t.silences,
    where: and(
      eq(t.silences.organizationId, uuid('organizationId')),
      eq(t.silences.projectId, uuid('projectId')),
      expired ? stateCondition('expired', searchValue('now', 'timestamptz')) : undefined,
      afterPosition
        ? beyondPosition(t.silences.createdAt, t.silences.id, 'desc', {
            at: searchValue('at', 'timestamptz'),
            id: uuid('id'),
          })
        : undefined,
      projectRange({ organizationId: uuid('organizationId'), projectId: uuid('projectId') }),
    )!,
    match,
    indexed: indexed ? [match] : null,
    walk: SILENCE_SEARCH_WALK,
    row: silenceRow,
  });
}

const both = [false, true];
const searchStatements = both.map((expired) =>
  both.map((afterPosition) => both.map((indexed) => searchStatementOf(expired, afterPosition, indexed))),
);

/**
 * Newest first; `state` is evaluated against one clock reading for the whole page; `q` keeps silences whose
 * comment or a matcher's label or value contains it, in any case.
 *
 * `scheduled` and `active` read only the silences that have not ended, through `silences_project_ends_idx`, and
 * sort those: a project holds few of them and many expired ones, and the planner, which cannot know that the
 * newest rows are the only ones not ended, would otherwise walk the `created_at` index through every expired
 * silence looking for a page it cannot fill. `PLANNER_FENCE` keeps the subquery from being flattened. A `q` is
 * a filter of those few rows; over all silences or the expired ones it is `searchList` (lib/db/search.ts).
 */
export async function listSilences(
  scope: SilenceScope,
  query: { limit: number; cursor?: string; state?: SilenceState; q?: string },
  now = new Date(),
): Promise<Page<Silence>> {
  const notEnded = query.state === 'scheduled' || query.state === 'active';
  const toSilences = (rows: SilenceRow[], resumeAt: { at: Date; id: string } | null = null) =>
    toPage(
      rows,
      query.limit,
      (r) => r.createdAt,
      (r) => toSilence(r, now),
      resumeAt,
    );
  if (query.q && !notEnded) {
    const position = query.cursor ? decodeCursor(query.cursor) : null;
    const search =
      searchStatements[+(query.state === 'expired')][+!!position][+([...query.q].length >= INDEXED_SEARCH_MIN)];
    const { rows, resumeAt } = await search({
      organizationId: scope.organizationId,
      projectId: scope.projectId,
      now: now.toISOString(),
      at: position?.at.toISOString(),
      id: position?.id,
      contains: containsPattern(query.q),
      limit: query.limit + 1,
    });
    return toSilences(rows, resumeAt);
  }
  const db = await getDb();
  const listed = and(
    projectWhere(t.silences, scope),
    query.state ? stateCondition(query.state, now) : undefined,
    afterCursor(query.cursor, t.silences.createdAt, t.silences.id, 'desc'),
  )!;
  const match = query.q ? ilike(t.silences.searchText, containsPattern(query.q)) : undefined;
  const where = and(listed, match);
  const source = notEnded
    ? db
        .select()
        .from(t.silences)
        .where(and(where, gt(t.silences.endsAt, now)))
        .offset(PLANNER_FENCE)
        .as('silences')
    : t.silences;
  const rows = await db
    .select({ row: silenceRow.sql.as('row') })
    .from(source)
    // Over all silences or the expired ones, the project as a range too: the walk of its index, whatever the statistics.
    .where(notEnded ? undefined : and(where, projectRange(scope)))
    .orderBy(desc(t.silences.createdAt), desc(t.silences.id))
    .limit(query.limit + 1);
  return toSilences(rows.map(({ row }) => silenceRow.read(row)));
}

/**
 * How many silences are in each state, against one clock reading: the console's tab counts. The scheduled and
 * active ones are counted among the silences that have not ended (`silences_project_ends_idx`, a few rows); the
 * expired ones are the project's total (`silence_totals`, kept by triggers, migration 0012) minus those, so no
 * expired silence is read. One statement, so the total and the rows are of one snapshot.
 */
export async function countSilences(scope: SilenceScope, now = new Date()): Promise<SilenceCounts> {
  const db = await getDb();
  const counted = (state: SilenceState) =>
    sql<number>`count(*) filter (where ${stateCondition(state, now)})`.mapWith(Number);
  const total = db
    .select({ total: t.silenceTotals.total })
    .from(t.silenceTotals)
    .where(
      and(eq(t.silenceTotals.organizationId, scope.organizationId), eq(t.silenceTotals.projectId, scope.projectId)),
    );
  const [row] = await db
    .select({
      scheduled: counted('scheduled'),
      active: counted('active'),
      total: sql<number>`coalesce((${total}), 0)`.mapWith(Number),
    })
    .from(t.silences)
    .where(and(projectWhere(t.silences, scope), gt(t.silences.endsAt, now)));
  const scheduled = row?.scheduled ?? 0;
  const active = row?.active ?? 0;
  return { scheduled, active, expired: (row?.total ?? 0) - scheduled - active };
}

// The read behind every GET of one silence: built once, a named statement on both databases.
