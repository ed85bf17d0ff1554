import { and, desc, eq, gte, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { cursorCodec, fieldOf } from '../http/cursor';
import type { Page } from '../http/pagination';
import type { AuditAction } from '../audit-actions';
import type { AuditEventsFilter, ListAuditEventsQuery } from './schema';
import { credentialLabel } from './source';
import type { AuditEvent } from '../db/audit-types';

type Row = typeof t.auditEvents.$inferSelect;

export function toAuditEvent(row: Row): AuditEvent {
  return {
    id: row.id,
    seq: row.seq,
    occurredAt: row.occurredAt.toISOString(),
    action: row.action as AuditAction,
    actor: row.actor,
    target: row.target,
    projectId: row.projectId,
    changes: row.changes,
    reason: row.reason,
    context: row.context,
  };
}

/** Cursors name the last seq served; anything else is 400 `invalid_cursor`. */
const seqCursor = cursorCodec<number>(
  (seq) => ({ seq }),
  (value) => {
    const seq = fieldOf(value, 'seq');
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : null;
  },
);

/** The filters as SQL, always inside the organization. */
function filterCondition(organizationId: string, filter: AuditEventsFilter): SQL | undefined {
  const { actor, action, targetType, targetId, projectId, since, until } = filter;
  const exact = action?.filter((a) => !a.endsWith('.*')) ?? [];
  const nouns = action?.filter((a) => a.endsWith('.*')).map((a) => `${a.slice(0, -1)}%`) ?? [];
  return and(
    eq(t.auditEvents.organizationId, organizationId),
    actor
      ? sql`(${t.auditEvents.actor}->>'id' = ${actor} or ${t.auditEvents.actor}->>'credential' = ${credentialLabel(actor)})`
      : undefined,
    action
      ? or(
          exact.length > 0 ? inArray(t.auditEvents.action, exact) : undefined,
          ...nouns.map((pattern) => like(t.auditEvents.action, pattern)),
        )
      : undefined,
    targetType ? sql`${t.auditEvents.target}->>'type' = ${targetType}` : undefined,
    targetId ? sql`${t.auditEvents.target}->>'id' = ${targetId}` : undefined,
    projectId ? eq(t.auditEvents.projectId, projectId) : undefined,
    since ? gte(t.auditEvents.occurredAt, new Date(since)) : undefined,
    until ? lt(t.auditEvents.occurredAt, new Date(until)) : undefined,
  );
}

/** One keyset batch, newest first: events below `beforeSeq` (or from the newest) matching the filter. */
async function eventsBefore(
  organizationId: string,
  filter: AuditEventsFilter,
  beforeSeq: number | null,
  limit: number,
): Promise<Row[]> {
  const db = await getDb();
  return db
    .select()
    .from(t.auditEvents)
    .where(
      and(filterCondition(organizationId, filter), beforeSeq === null ? undefined : lt(t.auditEvents.seq, beforeSeq)),
    )
    .orderBy(desc(t.auditEvents.seq))
    .limit(limit);
}

export async function listAuditEvents(organizationId: string, query: ListAuditEventsQuery): Promise<Page<AuditEvent>> {
  const beforeSeq = query.cursor ? seqCursor.decode(query.cursor) : null;
  const rows = await eventsBefore(organizationId, query, beforeSeq, query.limit + 1);
  const more = rows.length > query.limit;
  const items = (more ? rows.slice(0, query.limit) : rows).map(toAuditEvent);
  return { items, nextCursor: more ? seqCursor.encode(items[items.length - 1].seq) : null };
}

const EXPORT_BATCH = 500;

/**
 * Every matching event, newest first, one keyset batch at a time as the reader pulls: memory stays at one
 * batch however many events match, and events written meanwhile (higher seq) are not mixed in.
 */
export function auditEventBatches(organizationId: string, filter: AuditEventsFilter): AsyncIterable<AuditEvent[]> {
  return {
    async *[Symbol.asyncIterator]() {
      let beforeSeq: number | null = null;
      for (;;) {
        const rows = await eventsBefore(organizationId, filter, beforeSeq, EXPORT_BATCH);
        if (rows.length > 0) yield rows.map(toAuditEvent);
        if (rows.length < EXPORT_BATCH) return;
        beforeSeq = rows[rows.length - 1].seq;
      }
    },
  };
}
