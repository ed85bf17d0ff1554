import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors';
import type { CredentialSource } from './credentials';
import { admitRequest, type Door } from './pipeline';

/** A door whose credential is a fixed verdict: 401 when `refused`, else a caller with its rate-limit verdict. */
function door(verdict: { refused?: boolean; retryAfter?: number }, extra: Partial<Door<string>> = {}): Door<string> {
  const credential: CredentialSource<string> = async () => {
    if (verdict.refused) throw new ApiError('unauthenticated');
    return { caller: 'partner', principal: null, retryAfter: verdict.retryAfter ?? null };
  };
  return {
    protocol: { name: 'test', known: () => null, failure: () => new Response(null, { status: 500 }) },
    credential,
    operation: {
      maxBodyBytes: 16,
      params: z.object({ id: z.uuid() }),
      body: z.object({ name: z.string() }),
    },
    ...extra,
  };
}

const ID = '0b7e5a4e-51f1-4a36-9d2c-3f4a5b6c7d8e';

const post = (body: string) =>
  new NextRequest('http://127.0.0.1/things', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });

/** The status and code the pipeline refused a request with, or `passed`. */
async function outcome(d: Door<string>, body: string, params: Record<string, string> = { id: ID }) {
  try {
    await admitRequest(d, post(body), params, 'req_test');
    return 'passed';
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return `${err.status} ${err.code}`;
  }
}

describe('the order of checks every door shares', () => {
  const tooLarge = JSON.stringify({ name: 'x'.repeat(32) });

  it('answers 413 before looking at the credential', async () => {
    expect(await outcome(door({ refused: true }), tooLarge)).toBe('413 payload_too_large');
  });

  it('answers 401 before the rate limit, and 429 before the path and the body', async () => {
    expect(await outcome(door({ refused: true, retryAfter: 3 }), '{}')).toBe('401 unauthenticated');
    expect(await outcome(door({ retryAfter: 3 }), 'not json', { id: 'nope' })).toBe('429 too_many_requests');
  });

  it('puts the retry time on the 429, in the door’s words', async () => {
    const d = door({ retryAfter: 7 }, { tooManyRequests: 'Slow down.' });
    const err = await admitRequest(d, post('{}'), { id: ID }, 'req_test').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, message: 'Slow down.', headers: { 'retry-after': '7' } });
  });

  it('answers 404 for a malformed path parameter before validating the body', async () => {
    expect(await outcome(door({}, { paramMissing: 'thing not found' }), 'not json', { id: 'nope' })).toBe(
      '404 not_found',
    );
    expect(await outcome(door({}), 'not json')).toBe('400 invalid_request');
  });

  it('runs the door’s own input check after the declared body, and hands on what it read', async () => {
    const input = () => {
      throw new ApiError('invalid_request', 'the door’s own');
    };
    const d = door({}, { input });
    const err = await admitRequest(d, post('{}'), { id: ID }, 'req_test').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_request', issues: [{ path: 'name' }] });
    expect(await outcome(d, '{"name":"a"}')).toBe('400 invalid_request');
    const passed = await admitRequest(door({}, { input: () => 'read' }), post('{"name":"a"}'), { id: ID }, 'r');
    expect(passed).toMatchObject({ caller: 'partner', params: { id: ID }, body: { name: 'a' }, input: 'read' });
  });

  it('takes the tenant from the credential when the door says so', async () => {
    const d = door({}, { tenant: (caller) => ({ organizationId: `org of ${caller}`, project: null }) });
    const passed = await admitRequest(d, post('{"name":"a"}'), { id: ID }, 'req_test');
    expect(passed.tenant).toEqual({ organizationId: 'org of partner', project: null });
    expect(await passed.can('projects.get')).toBe(false);
  });
});
