import { describe, expect, it } from 'vitest';
import { insertTestSubscription, newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { SYSTEM_ACTOR } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { zodIssues } from '../http/issues';
import { mergeRetryPolicy } from './retry-policy';
import { createSubscriptionBody, DEFAULT_RETRY_POLICY, updateSubscriptionBody } from './schema';
import { getSubscription, updateSubscription } from './service';

const source: AuditSource = { actor: SYSTEM_ACTOR, context: { requestId: 'req_1', ip: null, userAgent: null } };
const current = { maxAttempts: 5, minBackoffSeconds: 10, maxBackoffSeconds: 600 };

describe('mergeRetryPolicy', () => {
  it('keeps the fields not sent, and says whether anything changed', () => {
    expect(mergeRetryPolicy(current, { maxAttempts: 8 })).toEqual({
      ok: true,
      policy: { ...current, maxAttempts: 8 },
      changed: true,
    });
    expect(mergeRetryPolicy(current, {})).toEqual({ ok: true, policy: current, changed: false });
    expect(mergeRetryPolicy(current, { minBackoffSeconds: 10 })).toEqual({ ok: true, policy: current, changed: false });
    expect(mergeRetryPolicy(current, { minBackoffSeconds: 600 })).toMatchObject({ ok: true, changed: true });
  });

  it('refuses a merged minimum above the maximum, at the field sent (the minimum when both are)', () => {
    const at = (patch: object, base = current) => {
      const merge = mergeRetryPolicy(base, patch);
      return merge.ok ? null : merge.issues.map((i) => i.path);
    };
    expect(at({ maxBackoffSeconds: 5 })).toEqual(['retryPolicy.maxBackoffSeconds']);
    expect(at({ minBackoffSeconds: 61 }, { ...current, maxBackoffSeconds: 60 })).toEqual([
      'retryPolicy.minBackoffSeconds',
    ]);
    expect(at({ minBackoffSeconds: 60, maxBackoffSeconds: 30 })).toEqual(['retryPolicy.minBackoffSeconds']);
  });
});

describe('the retry policy in request bodies', () => {
  const issues = (schema: typeof createSubscriptionBody | typeof updateSubscriptionBody, body: object) => {
    const parsed = schema.safeParse(body);
    return parsed.success ? [] : zodIssues(parsed.error).map((i) => i.path);
  };
  const create = { queueId: crypto.randomUUID(), target: { kind: 'workflow', workflowId: crypto.randomUUID() } };

  it('a create merges over the defaults: a maximum below the default minimum is refused there', () => {
    expect(createSubscriptionBody.parse(create)).toMatchObject({ batchSize: 10, maxConcurrency: 10, state: 'active' });
    expect(issues(createSubscriptionBody, { ...create, retryPolicy: { maxBackoffSeconds: 5 } })).toEqual([
      'retryPolicy.maxBackoffSeconds',
    ]);
    expect(
      issues(createSubscriptionBody, { ...create, retryPolicy: { maxBackoffSeconds: 5, minBackoffSeconds: 0 } }),
    ).toEqual([]);
  });

  it('bounds each field, one issue per field, and no cross-field issue beside a field’s own', () => {
    const body = { retryPolicy: { maxAttempts: 0, minBackoffSeconds: 601, maxBackoffSeconds: 3601, extra: 1 } };
    expect(issues(updateSubscriptionBody, body).sort()).toEqual([
      'retryPolicy.extra',
      'retryPolicy.maxAttempts',
      'retryPolicy.maxBackoffSeconds',
      'retryPolicy.minBackoffSeconds',
    ]);
    expect(
      issues(createSubscriptionBody, { ...create, retryPolicy: { minBackoffSeconds: 20, maxBackoffSeconds: 0 } }),
    ).toEqual(['retryPolicy.maxBackoffSeconds']);
    expect(DEFAULT_RETRY_POLICY.minBackoffSeconds).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxBackoffSeconds);
  });
});

describe('PATCH retryPolicy', () => {
  withEmptyEmbeddedDatabase('retry-policy');

  it('merges field by field, writes the dotted changes, and refuses a merged min above max with nothing written', async () => {
    const { scope, events } = await newTestProject('Retry');
    const sub = await insertTestSubscription(scope);
    const changed = await updateSubscription(scope, sub.id, { retryPolicy: { maxAttempts: 9 } }, source);
    expect(changed.retryPolicy).toEqual({ maxAttempts: 9, minBackoffSeconds: 10, maxBackoffSeconds: 600 });
    expect((await events()).map((e) => e.changes)).toEqual([[{ field: 'retryPolicy.maxAttempts', from: 5, to: 9 }]]);

    await expect(
      updateSubscription(scope, sub.id, { retryPolicy: { maxBackoffSeconds: 9 } }, source),
    ).rejects.toMatchObject({ code: 'invalid_request', issues: [{ path: 'retryPolicy.maxBackoffSeconds' }] });
    // The same values again: nothing written, updatedAt kept.
    const same = await updateSubscription(scope, sub.id, { retryPolicy: { maxAttempts: 9 }, batchSize: 10 }, source);
    expect(same.updatedAt).toBe(changed.updatedAt);
    expect(await getSubscription(scope, sub.id)).toEqual(changed);
    expect(await events()).toHaveLength(1);
  });
});
