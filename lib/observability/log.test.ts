import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

let lines: Record<string, unknown>[] = [];

beforeAll(() => {
  process.env.LOG_FORMAT = 'json';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  });
});
afterEach(() => {
  lines = [];
});

describe('the server log', () => {
  it('censors credentials wherever a line carries them', async () => {
    const { log } = await import('./log');
    log.info(
      {
        password: 'hunter2',
        token: 'svc_secret',
        code: '123456',
        headers: { authorization: 'Bearer svc_abc', cookie: 'next-auth.session-token=x' },
        body: { password: 'p', secret: 's', totp: '654321' },
      },
      'probe',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['hunter2', 'svc_secret', '123456', 'svc_abc', 'session-token', '"p"', '"s"', '654321'])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ msg: 'probe', password: '[redacted]', headers: { cookie: '[redacted]' } });
  });

  it('writes a failed request as a 500 line and the error with its stack, both under its request id', async () => {
    const { serve } = await import('../http/request');
    const protocol = {
      name: 'test',
      known: () => null,
      failure: () => new Response('failed', { status: 500 }),
    };
    const res = await serve(
      protocol,
      async () => {
        throw new Error('boom');
      },
      { method: 'GET', route: '/v1/things/{thingId}' },
    );
    const requestId = res.headers.get('x-request-id');
    const mine = lines.filter((line) => line.requestId === requestId);
    expect(mine).toHaveLength(2);
    const [error, request] = mine;
    expect(error).toMatchObject({ level: 50, msg: 'unhandled error', err: { message: 'boom' } });
    expect(String((error.err as { stack: string }).stack)).toContain('log.test.ts');
    expect(request).toMatchObject({ msg: 'request', method: 'GET', route: '/v1/things/{thingId}', status: 500 });
    expect(typeof request.durationMs).toBe('number');
  });
});
