import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { withIdempotency } from './idempotency';

withEmptyEmbeddedDatabase('idempotency');

let organizationId: string;
beforeAll(async () => {
  const [org] = await (await getDb()).insert(t.organizations).values({ name: 'Idempotency' }).returning();
  organizationId = org.id;
});

const scope = () => ({ organizationId, principal: 'user:idempotency', method: 'POST', path: '/v1/things' });
const request = (key: string) => new Request('http://127.0.0.1/v1/things', { headers: { 'idempotency-key': key } });

/** Runs the request under `key` with a handler answering `status`; counts the handler's runs in `runs`. */
async function send(key: string, status: number, runs: number[]): Promise<Response> {
  return withIdempotency(request(key), scope(), '{"a":1}', async () => {
    runs.push(status);
    return Response.json({ status }, { status });
  });
}

describe('withIdempotency', () => {
  it('stores a 4xx answer: a retry with the same key replays it without running again', async () => {
    const runs: number[] = [];
    expect((await send('key-4xx', 409, runs)).status).toBe(409);
    const retry = await send('key-4xx', 201, runs);
    expect(retry.status).toBe(409);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toEqual([409]);
  });

  it.each([500, 502, 503])(
    'does not store a %i: a retry with the same key runs again and its answer is kept',
    async (status) => {
      const runs: number[] = [];
      const key = `key-${status}`;
      const failed = await send(key, status, runs);
      expect(failed.status).toBe(status);
      const retry = await send(key, 201, runs);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      // The retry's answer is the one stored from then on.
      const again = await send(key, 409, runs);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(runs).toEqual([status, 201]);
    },
  );

  it('does not store a thrown error either: the key is free for the retry', async () => {
    const runs: number[] = [];
    await expect(
      withIdempotency(request('key-throws'), scope(), '{"a":1}', async () => {
        throw new Error('the handler failed');
      }),
    ).rejects.toThrow('the handler failed');
    expect((await send('key-throws', 201, runs)).status).toBe(201);
    expect(runs).toEqual([201]);
  });
});
