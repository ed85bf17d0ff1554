import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertTestSubscription, newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import * as t from '../db/schema';
import { createSilence } from '../silences/lifecycle-service';
import { getSilence, updateSilence } from '../silences/service';
import { updateSubscription } from '../subscriptions/service';
import { recordAuditEvent } from './record';
import { SYSTEM_ACTOR } from './source';
import type { AuditSource } from '../db/audit-types';
import { verifyAuditChain } from './verify';

// The hot PATCHes write their change and its event in one statement (`auditEventCtes`); these tests hold
// them to what the transaction path guarantees: the same event, a chain that verifies, all or nothing.
withEmptyEmbeddedDatabase('one-statement');

const source: AuditSource = {
  actor: { type: 'user', id: crypto.randomUUID(), name: 'Zoë "ops" \\ Ō', via: 'api_key', credential: 'svc_ab12…' },
  context: { requestId: 'req_1', ip: '192.0.2.1', userAgent: 'agent\u0000with nul' },
};
const principal = { type: 'user' as const, id: crypto.randomUUID() };

const setup = () => newTestProject('One statement');

const silenceBody = (comment: string) => ({
  comment,
  matchers: [{ label: 'alertname', op: '=' as const, value: 'DiskFull' }],
  endsAt: new Date(Date.now() + 3_600_000).toISOString(),
});

// Any text the API accepts: no NUL, no lone surrogates; control characters, quotes, backslashes, emoji.
const comment = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '\n', '\u0001', '\u001f', '\u007f', '\u2028', '/'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    minLength: 1,
    maxLength: 40,
  })
  .filter((s) => !s.includes('\u0000'));

describe('a change and its event in one statement', () => {
  it('every organization has its chain head from its creation', async () => {
    const { db, scope } = await setup();
    const [head] = await db
      .select()
      .from(t.auditChainHeads)
      .where(eq(t.auditChainHeads.organizationId, scope.organizationId));
    expect(head).toMatchObject({ seq: 0, hash: '' });
    expect(await verifyAuditChain(scope.organizationId)).toEqual({ verified: 0, firstBrokenSeq: null });
  });

  it('a new comment records what it replaced, for any text, and the chain verifies', async () => {
    const { scope, events } = await setup();
    const silence = await createSilence({ scope, principal, source, body: silenceBody('first') });
    let previous = 'first';
    await fc.assert(
      fc.asyncProperty(comment, async (next) => {
        fc.pre(next !== previous);
        const updated = await updateSilence({
          scope,
          silenceId: silence.id,
          body: { comment: next },
          ifMatch: '*',
          principal,
          source,
        });
        expect(updated.comment).toBe(next);
        const all = await events();
        const last = all[all.length - 1];
        expect(last).toMatchObject({ action: 'silence.updated', seq: all.length, projectId: scope.projectId });
        expect(last.target).toEqual({ type: 'silence', id: silence.id, name: silence.slug });
        expect(last.changes).toEqual([{ field: 'comment', from: previous, to: next }]);
        expect(last.context).toEqual({ requestId: 'req_1', ip: '192.0.2.1', userAgent: 'agent\ufffdwith nul' });
        previous = next;
      }),
      { numRuns: 60 },
    );
    const count = (await events()).length;
    expect(await verifyAuditChain(scope.organizationId)).toEqual({ verified: count, firstBrokenSeq: null });
  });

  it('interleaves with events written in transactions: one seq each, and the chain verifies', async () => {
    const { db, scope, events } = await setup();
    const silence = await createSilence({ scope, principal, source, body: silenceBody('start') });
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        n % 2 === 0
          ? updateSilence({
              scope,
              silenceId: silence.id,
              body: { comment: `c${n}` },
              ifMatch: null,
              principal,
              source,
            })
          : db.transaction((tx) =>
              recordAuditEvent(tx, {
                organizationId: scope.organizationId,
                action: 'subscription.updated',
                actor: SYSTEM_ACTOR,
                context: source.context,
                target: { type: 'subscription', id: 'sub', name: 'qsb_x' },
              }),
            ),
      ),
    );
    const seqs = (await events()).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(await verifyAuditChain(scope.organizationId)).toEqual({ verified: 21, firstBrokenSeq: null });
  });

  it('without a chain head the statement fails whole: the comment stays and no event is written', async () => {
    const { db, scope, events } = await setup();
    const silence = await createSilence({ scope, principal, source, body: silenceBody('kept') });
    await db.delete(t.auditEvents).where(eq(t.auditEvents.organizationId, scope.organizationId));
    await db.delete(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, scope.organizationId));
    await expect(
      updateSilence({ scope, silenceId: silence.id, body: { comment: 'lost' }, ifMatch: '*', principal, source }),
    ).rejects.toThrow();
    expect((await getSilence(scope, silence.id))?.comment).toBe('kept');
    expect(await events()).toEqual([]);
  });

  it('a subscription records the numbers it replaced; an unchanged field leaves it to the full path', async () => {
    const { db, scope, events } = await setup();
    const sub = await insertTestSubscription(scope);
    const both = await updateSubscription(scope, sub.id, { batchSize: 3, maxConcurrency: 7 }, source);
    expect(both).toMatchObject({ batchSize: 3, maxConcurrency: 7 });
    expect(Date.parse(both.updatedAt)).toBeGreaterThan(sub.updatedAt.getTime());
    // maxConcurrency is already 7: only batchSize changes, through the transaction.
    const one = await updateSubscription(scope, sub.id, { batchSize: 4, maxConcurrency: 7 }, source);
    expect(one).toMatchObject({ batchSize: 4, maxConcurrency: 7 });
    const same = await updateSubscription(scope, sub.id, { batchSize: 4 }, source);
    expect(same.updatedAt).toBe(one.updatedAt);
    const all = await events();
    expect(all.map((e) => e.changes)).toEqual([
      [
        { field: 'batchSize', from: 10, to: 3 },
        { field: 'maxConcurrency', from: 20, to: 7 },
      ],
      [{ field: 'batchSize', from: 3, to: 4 }],
    ]);
    expect(all[0].target).toEqual({ type: 'subscription', id: sub.id, name: sub.slug });
    expect(await verifyAuditChain(scope.organizationId)).toEqual({ verified: 2, firstBrokenSeq: null });
    const [{ n }] = (
      await db.execute(sql`select count(*)::int as n from audit_events where organization_id = ${scope.organizationId}`)
    ).rows as { n: number }[];
    expect(n).toBe(2);
  });
});
