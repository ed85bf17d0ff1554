import { describe, expect, it } from 'vitest';
import type { SubscriptionTarget } from '../db/schema';
import { knownTarget, mergeTarget } from './target';

const https: SubscriptionTarget = { kind: 'https', url: 'https://hooks.example.com/orders', timeoutSeconds: 30 };
const workflow: SubscriptionTarget = { kind: 'workflow', workflowId: '0b6f3a52-6a55-4c1e-9d0e-5d2a8f1c7e41' };

describe('merging a PATCH target into the current one', () => {
  it('changes only the fields given, keeping the others', () => {
    expect(mergeTarget(https, { kind: 'https', timeoutSeconds: 5 })).toEqual({
      ok: true,
      changed: true,
      target: { kind: 'https', url: 'https://hooks.example.com/orders', timeoutSeconds: 5 },
    });
    expect(mergeTarget(https, { kind: 'https', url: 'https://other.example.com/' })).toEqual({
      ok: true,
      changed: true,
      target: { kind: 'https', url: 'https://other.example.com/', timeoutSeconds: 30 },
    });
  });

  it('reports no change for the kind alone or for the same values', () => {
    expect(mergeTarget(https, { kind: 'https' })).toEqual({ ok: true, changed: false, target: https });
    expect(mergeTarget(https, { kind: 'https', timeoutSeconds: 30 })).toEqual({
      ok: true,
      changed: false,
      target: https,
    });
  });

  it('keeps stored fields this version does not know', () => {
    const withExtra = { ...https, headers: { 'x-team': 'billing' } } as SubscriptionTarget;
    const merged = mergeTarget(withExtra, { kind: 'https', timeoutSeconds: 9 });
    expect(merged).toEqual({ ok: true, changed: true, target: { ...withExtra, timeoutSeconds: 9 } });
  });

  it('merges a workflow target', () => {
    const workflowId = '5c0a7a3e-7d3f-4f8e-9a40-2c8f0e7d6b11';
    expect(mergeTarget(workflow, { kind: 'workflow', workflowId })).toEqual({
      ok: true,
      changed: true,
      target: { kind: 'workflow', workflowId },
    });
  });

  it('refuses a different kind at target.kind, in both directions and for a stored kind it does not know', () => {
    const refusal = (current: SubscriptionTarget, kind: 'https' | 'workflow') => mergeTarget(current, { kind });
    for (const [current, kind] of [
      [https, 'workflow'],
      [workflow, 'https'],
      [{ kind: 'queue', queueId: 'q' }, 'https'],
    ] as const) {
      const result = refusal(current, kind);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues.map((i) => i.path)).toEqual(['target.kind']);
    }
  });

  it('refuses a merged target that is incomplete for its kind, at the missing field', () => {
    const broken = { kind: 'https', url: 'https://hooks.example.com/' } as SubscriptionTarget;
    const result = mergeTarget(broken, { kind: 'https', url: 'https://other.example.com/' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.path)).toEqual(['target.timeoutSeconds']);
  });
});

describe('how a client reads a target', () => {
  it('knows https and workflow targets, and calls any other kind or shape unknown', () => {
    expect(knownTarget(https)).toEqual(https);
    expect(knownTarget(workflow)).toEqual(workflow);
    expect(knownTarget({ kind: 'email', address: 'a@b.example' } as SubscriptionTarget)).toEqual({ kind: 'unknown' });
    expect(knownTarget({ kind: 'https', url: 'https://x.example/' } as SubscriptionTarget)).toEqual({
      kind: 'unknown',
    });
  });
});
