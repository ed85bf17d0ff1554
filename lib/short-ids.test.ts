import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deadLetterParams } from './subscriptions/activity-schema';
import { webhookParams } from './webhooks/schema';
import { idNounOf, isShortId, resourceIdParam, shortIdResourceOf, uuidIdParam } from './short-ids';
import { newSlug } from './slug';

describe('resourceIdParam', () => {
  const queueId = resourceIdParam('queue');

  it('takes a uuid or the resource’s own short id, nothing else', () => {
    expect(queueId.safeParse('3f1c2a4e-8b7d-4c2e-9a1b-0c2d3e4f5a6b').success).toBe(true);
    expect(queueId.safeParse(newSlug('que')).success).toBe(true);
    for (const bad of [newSlug('qsb'), 'que_ABCDEFGHIJKL', 'que_short', `${newSlug('que')}x`, 'orders', ''])
      expect(queueId.safeParse(bad).success, bad).toBe(false);
  });

  it('is known to the pipeline as the resource it names, also in an extended params object', () => {
    expect(shortIdResourceOf(queueId)).toBe('queue');
    expect(shortIdResourceOf(deadLetterParams.shape.subscriptionId)).toBe('subscription');
    expect(shortIdResourceOf(deadLetterParams.shape.messageId)).toBeUndefined();
    expect(shortIdResourceOf(z.uuid())).toBeUndefined();
  });

  it('tells a short id from a uuid', () => {
    expect(isShortId(newSlug('sil'))).toBe(true);
    expect(isShortId('3f1c2a4e-8b7d-4c2e-9a1b-0c2d3e4f5a6b')).toBe(false);
  });
});

describe('uuidIdParam', () => {
  it('takes a uuid only, and names its resource for a 404 as a short id parameter does', () => {
    const keyId = uuidIdParam('apiKey');
    expect(keyId.safeParse('3f1c2a4e-8b7d-4c2e-9a1b-0c2d3e4f5a6b').success).toBe(true);
    expect(keyId.safeParse('key_abc').success).toBe(false);
    expect(idNounOf(keyId)).toBe('API key');
    expect(idNounOf(webhookParams.shape.webhookId)).toBe('webhook');
    expect(idNounOf(resourceIdParam('silence'))).toBe('silence');
    expect(idNounOf(z.uuid())).toBeUndefined();
    expect(shortIdResourceOf(keyId)).toBeUndefined();
  });
});
