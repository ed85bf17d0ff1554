import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { insertTestSubscription, newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { insertTestMessages } from '../../server/testing/queue-messages';
import { SYSTEM_ACTOR } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { MAX_REDRIVE_IDS } from './activity-schema';
import { discardDeadLetter, listDeadLetters, redriveDeadLetters } from './dead-letter-service';

const source: AuditSource = { actor: SYSTEM_ACTOR, context: { requestId: 'req_1', ip: null, userAgent: null } };
const MINUTE = 60_000;
const lastError = { at: '2030-06-01T11:00:00.000Z', class: 'http', message: 'Target answered 500', status: 500 };

/** A subscription with `dead` dead letters (dead-lettered a minute apart, oldest first) and one pending message. */
async function withDeadLetters(dead: number) {
  const project = await newTestProject('Dead letters');
  const sub = await insertTestSubscription(project.scope);
  const start = Date.now() - dead * MINUTE - MINUTE;
  const fates = Array.from({ length: dead }, (_, i) => ({
    state: 'dead' as const,
    attempts: 5,
    lastError,
    deadLetteredAt: new Date(start + i * MINUTE),
  }));
  const messages = await insertTestMessages(sub, [...fates, {}]);
  return { ...project, sub, dead: messages.slice(0, dead), pending: messages[dead] };
}

async function fates(subscriptionId: string) {
  const db = await getDb();
  return db
    .select()
    .from(t.subscriptionMessages)
    .where(eq(t.subscriptionMessages.subscriptionId, subscriptionId))
    .orderBy(asc(t.subscriptionMessages.publishedAt));
}

async function backlog(subscriptionId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ pending: t.subscriptionBacklogs.pending, dead: t.subscriptionBacklogs.dead })
    .from(t.subscriptionBacklogs)
    .where(eq(t.subscriptionBacklogs.subscriptionId, subscriptionId));
  return row;
}

await onBothDatabases('dead letters', 'dead-letters', () => {
  it('lists dead letters oldest dead-lettered first with their messages, page by page', async () => {
    const { scope, sub, dead } = await withDeadLetters(3);
    const first = await listDeadLetters(scope, sub.id, { limit: 2 });
    expect(first.items.map((d) => d.messageId)).toEqual([dead[0].id, dead[1].id]);
    expect(first.items[0]).toEqual({
      messageId: dead[0].id,
      body: { n: 0 },
      attributes: { n: '0' },
      publishedAt: dead[0].publishedAt.toISOString(),
      attempts: 5,
      lastError,
      deadLetteredAt: expect.stringMatching(/Z$/),
    });
    const second = await listDeadLetters(scope, sub.id, { limit: 2, cursor: first.nextCursor! });
    expect(second).toEqual({ items: [expect.objectContaining({ messageId: dead[2].id })], nextCursor: null });
    await expect(listDeadLetters({ ...scope, projectId: crypto.randomUUID() }, sub.id, { limit: 2 })).rejects.toThrow(
      /not found/,
    );
  });

  it('redrives the named dead letters: pending, due now, attempts 0; others and unknown ids are left', async () => {
    const { scope, sub, dead, pending, events } = await withDeadLetters(3);
    const before = Date.now();
    const redriven = await redriveDeadLetters(
      scope,
      sub.id,
      [dead[0].id, dead[2].id, pending.id, crypto.randomUUID()],
      source,
    );
    expect(redriven).toBe(2);
    const rows = await fates(sub.id);
    for (const i of [0, 2]) {
      expect(rows[i]).toMatchObject({
        state: 'pending',
        attempts: 0,
        deliveryId: null,
        deadLetteredAt: expect.any(Date),
      });
      expect(rows[i].availableAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    }
    expect(rows[1]).toMatchObject({ state: 'dead', attempts: 5 });
    expect(await backlog(sub.id)).toEqual({ pending: 3, dead: 1 });
    const [event] = await events();
    expect(event).toMatchObject({
      action: 'subscription.dead_letters_redriven',
      target: { type: 'subscription', id: sub.id, name: sub.slug },
      changes: [{ field: 'redriven', from: null, to: 2 }],
    });
    // Nothing to redrive: 0, and no event.
    expect(await redriveDeadLetters(scope, sub.id, [dead[0].id], source)).toBe(0);
    expect(await events()).toHaveLength(1);
  });

  it(`redrives all in batches of ${MAX_REDRIVE_IDS}, one event each, and leaves no dead letter behind`, async () => {
    const { scope, sub, events } = await withDeadLetters(2 * MAX_REDRIVE_IDS + 5);
    expect(await backlog(sub.id)).toEqual({ pending: 1, dead: 2 * MAX_REDRIVE_IDS + 5 });
    expect(await redriveDeadLetters(scope, sub.id, undefined, source)).toBe(2 * MAX_REDRIVE_IDS + 5);
    expect(await backlog(sub.id)).toEqual({ pending: 2 * MAX_REDRIVE_IDS + 6, dead: 0 });
    expect((await events()).map((e) => e.changes)).toEqual([
      [{ field: 'redriven', from: null, to: MAX_REDRIVE_IDS }],
      [{ field: 'redriven', from: null, to: MAX_REDRIVE_IDS }],
      [{ field: 'redriven', from: null, to: 5 }],
    ]);
    expect(await redriveDeadLetters(scope, sub.id, undefined, source)).toBe(0);
  });

  it('redrive of all takes only what was dead when the request came, and another subscription’s never', async () => {
    const { scope, sub, dead } = await withDeadLetters(2);
    const other = await insertTestSubscription(scope, { queueId: sub.queueId });
    await insertTestMessages(other, [{ state: 'dead', deadLetteredAt: new Date() }]);
    const db = await getDb();
    // Dead-lettered after the request began (a clock ahead of it): the next redrive's.
    await db
      .update(t.subscriptionMessages)
      .set({ deadLetteredAt: new Date(Date.now() + 60 * MINUTE) })
      .where(and(eq(t.subscriptionMessages.subscriptionId, sub.id), eq(t.subscriptionMessages.messageId, dead[1].id)));
    expect(await redriveDeadLetters(scope, sub.id, undefined, source)).toBe(1);
    expect(await backlog(other.id)).toEqual({ pending: 0, dead: 1 });
    await expect(
      redriveDeadLetters({ ...scope, organizationId: crypto.randomUUID() }, sub.id, undefined, source),
    ).rejects.toThrow(/not found/);
  });

  it('discards one dead letter with its event; a pending message or an unknown id is 404 and changes nothing', async () => {
    const { scope, sub, dead, pending, events } = await withDeadLetters(2);
    await discardDeadLetter(scope, sub.id, dead[0].id, source);
    expect((await fates(sub.id)).map((r) => r.messageId)).toEqual([dead[1].id, pending.id]);
    expect(await backlog(sub.id)).toEqual({ pending: 1, dead: 1 });
    const [event] = await events();
    expect(event).toMatchObject({
      action: 'subscription.dead_letter_discarded',
      changes: [{ field: 'messageId', from: dead[0].id, to: null }],
    });
    for (const id of [dead[0].id, pending.id, crypto.randomUUID()])
      await expect(discardDeadLetter(scope, sub.id, id, source)).rejects.toMatchObject({ code: 'not_found' });
    expect(await fates(sub.id)).toHaveLength(2);
    expect(await events()).toHaveLength(1);
  });
});
