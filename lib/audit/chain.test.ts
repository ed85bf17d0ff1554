import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';
import { chainHash, chainVerifier, eventJsonAroundSeq, GENESIS_HASH, type HashedEvent } from './chain';

const event = (seq: number): HashedEvent => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  organizationId: '11111111-1111-4111-8111-111111111111',
  seq,
  occurredAt: new Date(Date.UTC(2026, 10, 22, 3, 0, seq)).toISOString(),
  action: 'subscription.updated',
  actor: { type: 'user', id: 'u1', name: 'Ada', via: 'session', credential: null },
  target: { type: 'subscription', id: 's1', name: 'qsb_abc' },
  projectId: null,
  changes: [{ field: 'batchSize', from: seq, to: seq + 1 }],
  reason: null,
  context: { requestId: `req_${seq}`, ip: '127.0.0.1', userAgent: 'test' },
});

function chain(n: number, start = { seq: 0, hash: GENESIS_HASH }) {
  let previous = start.hash;
  return Array.from({ length: n }, (_, i) => {
    const e = event(start.seq + i + 1);
    previous = chainHash(previous, e);
    return { ...e, hash: previous };
  });
}

const headOf = (events: { seq: number; hash: string }[]) => ({ seq: events.at(-1)!.seq, hash: events.at(-1)!.hash });

describe('chainHash', () => {
  it('is SHA-256 of the previous hash and the canonical JSON of the event', async () => {
    const { createHash } = await import('node:crypto');
    const e = event(1);
    expect(chainHash('ab', e)).toBe(
      createHash('sha256')
        .update('ab' + canonicalJson(e))
        .digest('hex'),
    );
  });

  it('matches the split text the database completes with the seq it assigns', () => {
    const { seq, ...rest } = event(42);
    const [before, after] = eventJsonAroundSeq(rest);
    expect(before + String(seq) + after).toBe(canonicalJson(event(42)));
  });
});

describe('chainVerifier', () => {
  it('verifies an intact chain, in batches, up to its head', () => {
    const events = chain(5);
    const verifier = chainVerifier({ seq: 0, hash: GENESIS_HASH });
    expect(verifier.check(events.slice(0, 2))).toBe(true);
    expect(verifier.check(events.slice(2))).toBe(true);
    expect(verifier.result(headOf(events))).toEqual({ verified: 5, firstBrokenSeq: null });
  });

  it('starts from a retention checkpoint', () => {
    const all = chain(6);
    const verifier = chainVerifier({ seq: 3, hash: all[2].hash });
    verifier.check(all.slice(3));
    expect(verifier.result(headOf(all))).toEqual({ verified: 3, firstBrokenSeq: null });
  });

  it('reports the seq of an edited event', () => {
    const events = chain(5);
    events[2] = { ...events[2], changes: [{ field: 'batchSize', from: 1, to: 10 }] };
    const verifier = chainVerifier({ seq: 0, hash: GENESIS_HASH });
    expect(verifier.check(events)).toBe(false);
    expect(verifier.result(headOf(events))).toEqual({ verified: 2, firstBrokenSeq: 3 });
  });

  it('reports a deleted event, and a deleted tail against the head', () => {
    const events = chain(5);
    const gap = chainVerifier({ seq: 0, hash: GENESIS_HASH });
    gap.check([...events.slice(0, 1), ...events.slice(2)]);
    expect(gap.result(headOf(events))).toEqual({ verified: 1, firstBrokenSeq: 2 });
    const tail = chainVerifier({ seq: 0, hash: GENESIS_HASH });
    tail.check(events.slice(0, 3));
    expect(tail.result(headOf(events))).toEqual({ verified: 3, firstBrokenSeq: 4 });
  });

  it('reports a re-hashed chain whose head no longer matches', () => {
    const events = chain(3);
    const forged = chain(3).map((e) => ({ ...e }));
    forged[2] = { ...forged[2], reason: 'forged', hash: chainHash(forged[1].hash, { ...event(3), reason: 'forged' }) };
    const verifier = chainVerifier({ seq: 0, hash: GENESIS_HASH });
    verifier.check(forged);
    expect(verifier.result(headOf(events))).toEqual({ verified: 3, firstBrokenSeq: 3 });
  });
});
