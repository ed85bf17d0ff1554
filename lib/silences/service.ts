import { and, eq, getTableColumns, sql, type AnyColumn } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { changesBetween } from '../audit/changes';
import { projectResourceEvent } from '../audit/project-event';
import { auditEventCtes, recordAuditEvent, statementValue } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { getDb, preparedStatement, runStatement, type Tx } from '../db/client';
import { jsonRow, projectResourceWhere, StatementValues, projectWhere } from '../db/statement';
import * as t from '../db/schema';
import type { Principal } from '../auth/principal';
import { ApiError, invalidRequest, notFound, type Issue } from '../errors';
import { ifMatchVersions, requireIfMatch, strongEtag } from '../http/etag';
import {
  FIELDS_BY_STATE,
  silenceState,
  type Silence,
  type SilenceField,
  type SilenceState,
  type UpdateSilenceBody,
} from './schema';
import { parseUtcInstant, formatInstant } from './time';
import { auditEventsWritten } from '../observability/metrics';
import { lockProjectMuting, relinkSilence, renotifySilence } from './muting-service';

export type SilenceScope = { organizationId: string; projectId: string };

/** A principal's name in the same statement as the row, so naming the author costs no extra query. */
const principalName = (type: AnyColumn, id: AnyColumn) =>
  sql<string>`case when ${type} = 'bot'
    then (select ${t.bots.name} from ${t.bots} where ${t.bots.id} = ${id})
    else (select ${t.users.name} from ${t.users} where ${t.users.id} = ${id}) end`;

// Every column but `search_text`, which only the search reads (a copy of the comment and the matchers).
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken out of the rest, never read
const { searchText, ...storedColumns } = getTableColumns(t.silences);

/** Every column of a silence but its search text, plus its authors' names: what every read and write returns. */
export const silenceColumns = {
  ...storedColumns,
  createdByName: principalName(t.silences.createdByType, t.silences.createdById),
  updatedByName: principalName(t.silences.updatedByType, t.silences.updatedById),
};
export type SilenceRow = Omit<typeof t.silences.$inferSelect, 'searchText'> & {
  createdByName: string | null;
  updatedByName: string | null;
};

export function toSilence(row: SilenceRow, now: Date): Silence {
  return {
    id: row.id,
    projectId: row.projectId,
    resourceName: `organizations/${row.organizationId}/projects/${row.projectId}/silences/${row.id}`,
    slug: row.slug,
    comment: row.comment,
    matchers: row.matchers.map(({ label, op, value }) => ({ label, op, value })),
    startsAt: formatInstant(row.startsAt),
    endsAt: formatInstant(row.endsAt),
    state: silenceState(row, now),
    createdAt: formatInstant(row.createdAt),
    updatedAt: formatInstant(row.updatedAt),
    createdBy: { id: row.createdById, type: row.createdByType, name: row.createdByName ?? 'Unknown' },
    updatedBy: { id: row.updatedById, type: row.updatedByType, name: row.updatedByName ?? 'Unknown' },
    version: row.version,
    mutedAlerts: silenceState(row, now) === 'active' ? row.matchedAlerts : 0,
  };
}

export const silenceEtag = (s: { version: number }) => strongEtag(s.version);

const getSilenceStatement = preparedStatement((db) =>
  db.select(silenceColumns).from(t.silences).where(projectResourceWhere(t.silences)).prepare('silences_get'),
);

export async function getSilence(scope: SilenceScope, silenceId: string, now = new Date()): Promise<Silence | null> {
  const [row] = await (await getSilenceStatement()).execute({ ...scope, id: silenceId });
  return row ? toSilence(row, now) : null;
}

const ARTICLE: Record<SilenceState, string> = { scheduled: 'A scheduled', active: 'An active', expired: 'An expired' };

function refusedFieldIssues(state: SilenceState, sent: SilenceField[]): Issue[] {
  const accepted = FIELDS_BY_STATE[state];
  const why = accepted.length === 0 ? 'it accepts no changes' : `it accepts only ${accepted.join(' and ')}`;
  return sent
    .filter((field) => !accepted.includes(field))
    .map((field) => ({ path: field, message: `${ARTICLE[state]} silence cannot change ${field}: ${why}.` }));
}

type UpdateInput = {
  scope: SilenceScope;
  silenceId: string;
  body: UpdateSilenceBody;
  ifMatch: string | null;
  principal: Pick<Principal, 'type' | 'id'>;
  source: AuditSource;
};

/** What an update may change, as an event's `changes` compare it (times as the API writes them). */
const changeable = (row: Pick<SilenceRow, 'comment' | 'matchers' | 'startsAt' | 'endsAt'>) => ({
  comment: row.comment,
  matchers: row.matchers.map(({ label, op, value }) => ({ label, op, value })),
  startsAt: formatInstant(row.startsAt),
  endsAt: formatInstant(row.endsAt),
});

/** A silence as one JSON array (lib/db/statement.ts), for statements that read one: one field for the driver to parse. */
export const silenceRow = jsonRow(silenceColumns);

/**
 * `silenceRow` as SQL text over a relation named `silences`, for statements written as text: their `updated` rows
 * are read `from updated as silences`.
 */
const SILENCE_ROW_SQL = (() => {
  const { sql: text, params } = new PgDialect().sqlToQuery(silenceRow.sql);
  if (params.length > 0) throw new Error('silenceRow holds values');
  return text;
})();

/**
 * The common edit, a new comment, as one statement with its audit event (no transaction around it: one
 * round trip). It applies only when everything the full path checks already holds (in scope, If-Match
 * names the version, not expired, the comment differs); when it matches no row, the full path runs and
 * answers exactly why (404, 412, 409, or no change). The CTE locks the row and keeps the comment being
 * replaced, for the event: RETURNING sees only the new one.
 */
async function updateCommentOnly(input: UpdateInput, now: Date): Promise<Silence | null> {
  const { comment, ...rest } = input.body;
  if (comment === undefined || Object.values(rest).some((v) => v !== undefined)) return null;
  const versions = ifMatchVersions(input.ifMatch);
  if (versions !== null && versions.length === 0) return null;
  const { scope, silenceId, principal } = input;
  const v = new StatementValues();
  const [id, org, project, newComment, at] = [
    v.add(silenceId, 'uuid'),
    v.add(scope.organizationId, 'uuid'),
    v.add(scope.projectId, 'uuid'),
    v.add(comment, 'text'),
    v.add(now.toISOString(), 'timestamptz'),
  ];
  const oneSilenceSql = `s.id = ${id} and s.organization_id = ${org} and s.project_id = ${project}`;
  const event = projectResourceEvent(
    input.source,
    'silence.updated',
    {
      organizationId: scope.organizationId,
      projectId: scope.projectId,
      id: silenceId,
      slug: statementValue('updated.slug'),
    },
    [{ field: 'comment', from: statementValue('updated.previous_comment'), to: comment }],
  );
  const statement = `with previous as (
      select s.comment from silences s where ${oneSilenceSql} for update
    ), updated as (
      update silences s
      set comment = ${newComment}, version = s.version + 1, updated_at = ${at},
        updated_by_type = ${v.add(principal.type, 'text')}, updated_by_id = ${v.add(principal.id, 'uuid')}
      from previous
      where ${oneSilenceSql} and s.ends_at > ${at} and s.comment <> ${newComment}
        ${versions === null ? '' : `and s.version = any(${v.add(versions, 'integer[]')})`}
      returning s.*, previous.comment as previous_comment
    ), ${auditEventCtes(event, v, 'updated', now)}
    select ${SILENCE_ROW_SQL} as row from updated as silences`;
  const [raw] = await runStatement<{ row: unknown[] }>(statement, v.values);
  if (!raw) return null;
  auditEventsWritten.inc({ action: event.action });
  return toSilence(silenceRow.read(raw.row), now);
}

/** Locks the silence for a change in `tx`: 404 when it is not in scope, then 412 unless If-Match names it. */
export async function lockMatchingSilence(
  tx: Tx,
  input: { scope: SilenceScope; silenceId: string; ifMatch: string | null },
): Promise<SilenceRow> {
  // Before the row: an alert batch holds this lock when it recounts silences, so both take them in one order.
  await lockProjectMuting(tx, input.scope);
  const [row] = await tx
    .select(silenceColumns)
    .from(t.silences)
    .where(and(projectWhere(t.silences, input.scope), eq(t.silences.id, input.silenceId)))
    .for('update');
  if (!row) throw notFound('Silence not found.');
  requireIfMatch(input.ifMatch, silenceEtag(row));
  return row;
}

/** Writes a change as the next version, only if the row is still at the version read: else 412, nothing changed. */
export async function writeNextVersion(
  tx: Tx,
  row: SilenceRow,
  values: Partial<Pick<SilenceRow, 'comment' | 'matchers' | 'startsAt' | 'endsAt'>>,
  principal: Pick<Principal, 'type' | 'id'>,
  now: Date,
): Promise<SilenceRow> {
  const [updated] = await tx
    .update(t.silences)
    .set({
      ...values,
      version: row.version + 1,
      updatedAt: now,
      updatedByType: principal.type,
      updatedById: principal.id,
    })
    .where(and(eq(t.silences.id, row.id), eq(t.silences.version, row.version)))
    .returning(silenceColumns);
  if (!updated) throw new ApiError('precondition_failed');
  // Links ignore the window: only new matchers, or an end reached now, change which alerts it matches.
  const text = (ms: SilenceRow['matchers']) => JSON.stringify(ms.map((m) => [m.label, m.op, m.value]));
  const newMatchers = values.matchers !== undefined && text(values.matchers) !== text(row.matchers);
  if (newMatchers || (values.endsAt !== undefined && values.endsAt <= now))
    updated.matchedAlerts = await relinkSilence(tx, updated, updated, now);
  else if (values.startsAt !== undefined || values.endsAt !== undefined)
    await renotifySilence(tx, updated, row.id, now);
  return updated;
}

/**
 * Applies a PATCH in one transaction: 404 → 412 (If-Match) → 409 (state) → 400 (merged times) → change.
 * The row is locked and the UPDATE is conditional on the version read, so of two requests naming
 * the same ETag exactly one wins, on PGlite and across instances on PostgreSQL.
 */
export async function updateSilence(input: UpdateInput & { now?: Date }): Promise<Silence> {
  const now = input.now ?? new Date();
  const db = await getDb();
  const fast = await updateCommentOnly(input, now);
  if (fast) return fast;
  return db.transaction(async (tx) => {
    const row = await lockMatchingSilence(tx, input);

    const { body } = input;
    const sent = (Object.keys(body) as SilenceField[]).filter((field) => body[field] !== undefined);
    const refused = refusedFieldIssues(silenceState(row, now), sent);
    if (refused.length > 0)
      throw new ApiError('silence_state_conflict', refused.map((i) => i.message).join(' '), { issues: refused });

    // A time in the past means "now": start it now, or end it now.
    const clamp = (text: string | undefined) => {
      const at = text === undefined ? null : parseUtcInstant(text);
      return at && at < now ? now : at;
    };
    const startsAt = clamp(body.startsAt) ?? row.startsAt;
    const endsAt = clamp(body.endsAt) ?? row.endsAt;
    if (endsAt <= startsAt) {
      throw invalidRequest([
        { path: 'endsAt', message: `The end must be after the start (${formatInstant(startsAt)}).` },
      ]);
    }
    const next = { comment: body.comment ?? row.comment, matchers: body.matchers ?? row.matchers, startsAt, endsAt };
    const changes = changesBetween(changeable(row), changeable(next));
    if (changes.length === 0) return toSilence(row, now);

    const updated = await writeNextVersion(tx, row, next, input.principal, now);
    await recordAuditEvent(tx, projectResourceEvent(input.source, 'silence.updated', updated, changes));
    return toSilence(updated, now);
  });
}
