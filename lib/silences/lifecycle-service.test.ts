import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertTestSubscription, newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import * as t from '../db/schema';
import { SYSTEM_ACTOR } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { setSubscriptionState } from '../subscriptions/service';
import { createSilence, expireSilence } from './lifecycle-service';

withEmptyEmbeddedDatabase('silence-lifecycle');

const source: AuditSource = { actor: SYSTEM_ACTOR, context: { requestId: 'req_1', ip: null, userAgent: null } };
const matchers = [{ label: 'alertname', op: '=' as const, value: 'DiskFull' }];
const NOW = new Date('2030-06-01T12:00:00.000Z');

async function setup() {
  return { ...(await newTestProject('Lifecycle')), principal: { type: 'user' as const, id: crypto.randomUUID() } };
}

describe('createSilence and expireSilence', () => {
  it('create starts now when startsAt is absent or past, and writes silence.created with the fields', async () => {
    const { scope, events, principal } = await setup();
    const created = await createSilence({
      scope,
      principal,
      source,
      now: NOW,
      body: { comment: 'db-3 disk', matchers, startsAt: '2001-01-01T00:00:00Z', endsAt: '2030-06-01T16:00:00Z' },
    });
    expect(created).toMatchObject({ state: 'active', startsAt: NOW.toISOString(), version: 1 });
    const [event] = await events();
    expect(event).toMatchObject({ action: 'silence.created', projectId: scope.projectId, seq: 1 });
    expect(event.target).toEqual({ type: 'silence', id: created.id, name: created.slug });
    expect(event.changes).toEqual([
      { field: 'comment', from: null, to: 'db-3 disk' },
      { field: 'matchers', from: null, to: matchers },
      { field: 'startsAt', from: null, to: NOW.toISOString() },
      { field: 'endsAt', from: null, to: '2030-06-01T16:00:00.000Z' },
    ]);
  });

  it('an end that is not after the start creates nothing and writes no event', async () => {
    const { scope, events, principal, db } = await setup();
    await expect(
      createSilence({
        scope,
        principal,
        source,
        now: NOW,
        body: { comment: 'x', matchers, endsAt: '2030-06-01T11:00:00Z' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_request', issues: [{ path: 'endsAt' }] });
    expect(await db.select().from(t.silences).where(eq(t.silences.projectId, scope.projectId))).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('expire ends an active silence now and a scheduled one at once; an expired one is 409 with no event', async () => {
    const { scope, events, principal } = await setup();
    const body = { comment: 'c', matchers, endsAt: '2030-06-02T00:00:00Z' };
    const active = await createSilence({ scope, principal, source, now: NOW, body });
    const scheduled = await createSilence({
      scope,
      principal,
      source,
      now: NOW,
      body: { ...body, startsAt: '2030-06-01T18:00:00Z' },
    });
    const later = new Date(NOW.getTime() + 60_000);
    const ended = await expireSilence({ scope, silenceId: active.id, ifMatch: '"1"', principal, source, now: later });
    expect(ended).toMatchObject({
      state: 'expired',
      startsAt: active.startsAt,
      endsAt: later.toISOString(),
      version: 2,
    });
    const never = await expireSilence({ scope, silenceId: scheduled.id, ifMatch: null, principal, source, now: later });
    expect(never).toMatchObject({ state: 'expired', startsAt: later.toISOString(), endsAt: later.toISOString() });

    await expect(
      expireSilence({ scope, silenceId: active.id, ifMatch: null, principal, source, now: later }),
    ).rejects.toMatchObject({ code: 'silence_state_conflict' });
    await expect(
      expireSilence({ scope, silenceId: active.id, ifMatch: '"1"', principal, source, now: later }),
    ).rejects.toMatchObject({ code: 'precondition_failed' });
    const expired = (await events()).filter((e) => e.action === 'silence.expired');
    expect(expired.map((e) => e.changes)).toEqual([
      [{ field: 'endsAt', from: '2030-06-02T00:00:00.000Z', to: later.toISOString() }],
      [
        { field: 'startsAt', from: '2030-06-01T18:00:00.000Z', to: later.toISOString() },
        { field: 'endsAt', from: '2030-06-02T00:00:00.000Z', to: later.toISOString() },
      ],
    ]);
  });
});

describe('setSubscriptionState', () => {
  it('pauses and resumes with one event each; a repeat changes nothing and writes none', async () => {
    const { scope, events } = await setup();
    const sub = await insertTestSubscription(scope, {
      batchSize: 1,
      maxConcurrency: 1,
      target: { kind: 'workflow', workflowId: crypto.randomUUID() },
    });
    const paused = await setSubscriptionState(scope, sub.id, 'paused', source);
    expect(paused.state).toBe('paused');
    expect(await setSubscriptionState(scope, sub.id, 'paused', source)).toEqual(paused);
    const resumed = await setSubscriptionState(scope, sub.id, 'active', source);
    expect(resumed.state).toBe('active');
    expect(resumed.updatedAt > paused.updatedAt).toBe(true);
    expect(await setSubscriptionState(scope, sub.id, 'active', source)).toEqual(resumed);
    expect((await events()).map((e) => [e.action, e.changes])).toEqual([
      ['subscription.paused', [{ field: 'state', from: 'active', to: 'paused' }]],
      ['subscription.resumed', [{ field: 'state', from: 'paused', to: 'active' }]],
    ]);
    const other = { ...scope, projectId: crypto.randomUUID() };
    await expect(setSubscriptionState(other, sub.id, 'paused', source)).rejects.toMatchObject({ code: 'not_found' });
  });
});
