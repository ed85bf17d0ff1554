import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { projectResourceEvent } from '../audit/project-event';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { notFound } from '../errors';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import { MAX_REDRIVE_IDS, type DeadLetter } from './activity-schema';
import { oneSubscription, type SubscriptionScope } from './service';
import { queryRows } from '../db/statement';

const m = t.subscriptionMessages;

/**
 * The subscription's place and slug (what its events name), or 404. With `lock`, `key share` holds off its deletion
 * until the caller's transaction ends, while plain updates of its row go on.
 */
export async function subscriptionRef(tx: DbOrTx, scope: SubscriptionScope, id: string, lock = false) {
  const query = tx
    .select({
      organizationId: t.subscriptions.organizationId,
      projectId: t.subscriptions.projectId,
      id: t.subscriptions.id,
      slug: t.subscriptions.slug,
    })
    .from(t.subscriptions)
    .where(oneSubscription(scope, id));
  const [row] = await (lock ? query.for('key share') : query);
  if (!row) throw notFound('Subscription not found.');
  return row;
}

/** Oldest dead-lettered first, keyset-paged over `subscription_messages_dead_idx`, each with its message. */
export async function listDeadLetters(
  scope: SubscriptionScope,
  id: string,
  page: PageQuery,
): Promise<Page<DeadLetter>> {
  const db = await getDb();
  await subscriptionRef(db, scope, id);
  const rows = await db
    .select({
      id: m.messageId,
      body: t.queueMessages.body,
      attributes: t.queueMessages.attributes,
      publishedAt: m.publishedAt,
      attempts: m.attempts,
      lastError: m.lastError,
      deadLetteredAt: m.deadLetteredAt,
    })
    .from(m)
    .innerJoin(t.queueMessages, eq(t.queueMessages.id, m.messageId))
    .where(
      and(
        eq(m.subscriptionId, id),
        eq(m.state, 'dead'),
        afterCursor(page.cursor, m.deadLetteredAt, m.messageId, 'asc'),
      ),
    )
    .orderBy(asc(m.deadLetteredAt), asc(m.messageId))
    .limit(page.limit + 1);
  return toPage(
    rows,
    page.limit,
    // Set on every dead row: the one who dead-letters a message stamps it.
    (r) => r.deadLetteredAt!,
    ({ id: messageId, ...r }) => ({
      messageId,
      body: r.body,
      attributes: r.attributes,
      publishedAt: r.publishedAt.toISOString(),
      attempts: r.attempts,
      lastError: r.lastError ?? null,
      deadLetteredAt: r.deadLetteredAt!.toISOString(),
    }),
  );
}

type Position = { at: Date; id: string };

/**
 * One batch of a redrive in its own transaction, with its event: the dead letters `which` picks (at most
 * MAX_REDRIVE_IDS, in dead-lettered order) become pending again, due now, their attempts starting over. Answers how
 * many, and the position of the last one, where the next batch of "all" starts.
 */
async function redriveBatch(
  scope: SubscriptionScope,
  id: string,
  which: SQL,
  source: AuditSource,
): Promise<{ redriven: number; last: Position | null }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const sub = await subscriptionRef(tx, scope, id, true);
    const now = new Date().toISOString();
    const [row] = await queryRows<{ redriven: number; at: Date | string | null; id: string | null }>(
      tx,
      sql`
      with picked as (
        select message_id, dead_lettered_at from subscription_messages
        where subscription_id = ${id}::uuid and state = 'dead' and ${which}
        order by dead_lettered_at, message_id limit ${MAX_REDRIVE_IDS}
        for update
      ), redriven as (
        update subscription_messages s
        -- dead_lettered_at stays set, to the redrive: its retention counts from now, not from its publication.
        set state = 'pending', attempts = 0, available_at = ${now}::timestamptz, delivery_id = null,
          dead_lettered_at = ${now}::timestamptz
        from picked where s.subscription_id = ${id}::uuid and s.message_id = picked.message_id
        returning picked.dead_lettered_at, s.message_id
      )
      select (select count(*)::int from redriven) as redriven, last.dead_lettered_at as at, last.message_id as id
      from (select 1) one left join lateral (
        select dead_lettered_at, message_id from redriven order by 1 desc, 2 desc limit 1
      ) last on true`,
    );
    if (row.redriven > 0) {
      const changes = [{ field: 'redriven', from: null, to: row.redriven }];
      await recordAuditEvent(tx, projectResourceEvent(source, 'subscription.dead_letters_redriven', sub, changes));
    }
    return { redriven: row.redriven, last: row.at && row.id ? { at: new Date(row.at), id: row.id } : null };
  });
}

/**
 * Redrives the dead letters named, or all of them. "All" goes in batches, each its own transaction and event, so a
 * large queue of dead letters never holds one long transaction; it walks the dead index from where the last batch
 * stopped, and takes only what was dead-lettered before the request came (a message failing again meanwhile waits
 * for the next redrive, so the walk ends).
 */
export async function redriveDeadLetters(
  scope: SubscriptionScope,
  id: string,
  messageIds: string[] | undefined,
  source: AuditSource,
): Promise<number> {
  if (messageIds) {
    const ids = `{${messageIds.join(',')}}`;
    return (await redriveBatch(scope, id, sql`message_id = any(${ids}::uuid[])`, source)).redriven;
  }
  const until = new Date().toISOString();
  let total = 0;
  let after: Position | null = null;
  for (;;) {
    const beyond: SQL = after
      ? sql`(dead_lettered_at, message_id) > (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)`
      : sql`true`;
    const batch = await redriveBatch(scope, id, sql`dead_lettered_at <= ${until}::timestamptz and ${beyond}`, source);
    total += batch.redriven;
    if (batch.redriven < MAX_REDRIVE_IDS || !batch.last) return total;
    after = batch.last;
    // On the embedded database, requests queued meanwhile go before the next batch.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Deletes one dead letter for good, with its event; one that is not dead (or not this subscription's) is 404. */
export async function discardDeadLetter(
  scope: SubscriptionScope,
  id: string,
  messageId: string,
  source: AuditSource,
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const sub = await subscriptionRef(tx, scope, id, true);
    const gone = await tx
      .delete(m)
      .where(and(eq(m.subscriptionId, id), eq(m.messageId, messageId), eq(m.state, 'dead')))
      .returning({ messageId: m.messageId });
    if (gone.length === 0) throw notFound('No such dead letter.');
    const changes = [{ field: 'messageId', from: messageId, to: null }];
    await recordAuditEvent(tx, projectResourceEvent(source, 'subscription.dead_letter_discarded', sub, changes));
  });
}
