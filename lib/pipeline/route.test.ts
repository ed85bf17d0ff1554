import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors';
import { errorResponse } from './route';
import { log as logger } from '../observability/log';

describe('error responses', () => {
  it('turns a typed error into the envelope with its status, issues and headers', async () => {
    const res = errorResponse(
      new ApiError('invalid_request', 'Bad.', { issues: [{ path: 'a.b', message: 'no' }] }),
      'req_1',
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'invalid_request', message: 'Bad.', issues: [{ path: 'a.b', message: 'no' }] },
    });
  });

  it('answers 503 unavailable with Retry-After when the database cannot be reached', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const res = errorResponse(new Error('query failed', { cause: err }), 'req_2');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await res.json()).error.code).toBe('unavailable');
    spy.mockRestore();
  });

  it('answers 500 internal_error naming the request id, and logs the stack under it', async () => {
    const spy = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const res = errorResponse(new TypeError('boom'), 'req_abc123');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).toContain('req_abc123');
    expect(body.error.message).not.toContain('boom');
    expect(spy).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'req_abc123', err: expect.any(TypeError) }),
      'unhandled error',
    );
    spy.mockRestore();
  });

  it('caps messages at 1024 characters', async () => {
    const res = errorResponse(new ApiError('not_found', 'x'.repeat(5000)), 'req_3');
    expect((await res.json()).error.message).toHaveLength(1024);
  });
});
