import { afterEach, describe, expect, it, vi } from 'vitest';
import { newRequestId, serve, type Protocol } from './request';
import { log as logger } from '../observability/log';

class Known extends Error {}

const protocol: Protocol = {
  name: 'test',
  known: (err) => (err instanceof Known ? new Response('known', { status: 418 }) : null),
  failure: (failure, requestId) =>
    new Response(`${failure} ${requestId}`, { status: failure === 'unavailable' ? 503 : 500 }),
};

describe('the request skeleton', () => {
  afterEach(() => vi.restoreAllMocks());

  it('makes distinct request ids of one shape', () => {
    const ids = new Set(Array.from({ length: 100 }, newRequestId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('puts the request id on a successful answer', async () => {
    const res = await serve(protocol, async () => new Response('ok'));
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it("answers an error the protocol knows in the protocol's own body", async () => {
    const res = await serve(protocol, async () => {
      throw new Known();
    });
    expect(res.status).toBe(418);
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it('answers 503 with Retry-After when the database cannot be reached', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await serve(protocol, async () => {
      throw new Error('query failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
  });

  it('answers 500 naming the request id, and logs the error under it', async () => {
    const log = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const res = await serve(protocol, async () => {
      throw new TypeError('boom');
    });
    const id = res.headers.get('x-request-id')!;
    expect(res.status).toBe(500);
    expect(await res.text()).toBe(`internal ${id}`);
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: id, err: expect.any(TypeError) }),
      'unhandled error',
    );
  });
});
