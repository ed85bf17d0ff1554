import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, sendSigned } from './send';

// A real receiver on 127.0.0.1; `localhost` reaches it only through DNS, so it exercises the connection-time check.
let server: http.Server;
let port = 0;
const hits: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url!);
    req.resume();
    if (req.url === '/redirect') return res.writeHead(307, { location: '/elsewhere' }).end();
    if (req.url === '/huge') {
      res.writeHead(200);
      // Far more than the 64 KiB a delivery reads; the sender stops reading and the request still completes.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const write = () => {
        while (res.write(chunk)) if (res.writableLength > 16 * MAX_ANSWER_BYTES) break;
      };
      write();
      res.on('drain', write);
      return;
    }
    res.writeHead(202, { 'retry-after': '7' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('sendSigned', () => {
  it('refuses at connection time a name that resolves to loopback while the switch is off', async () => {
    delete process.env.WEBHOOK_ALLOW_LOOPBACK;
    const before = hits.length;
    const result = await sendSigned(`http://localhost:${port}/rebound`, {}, '{}');
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/EADDRNOTALLOWED/);
    expect(hits.length).toBe(before);
  });

  it('connects when the switch admits loopback, and reports the status and Retry-After', async () => {
    process.env.WEBHOOK_ALLOW_LOOPBACK = '1';
    try {
      const result = await sendSigned(`http://localhost:${port}/ok`, { 'webhook-id': 'x' }, '{}');
      expect(result).toMatchObject({ status: 202, error: null, retryAfter: '7' });
    } finally {
      delete process.env.WEBHOOK_ALLOW_LOOPBACK;
    }
  });

  it('follows no redirect: a 3xx is the answer', async () => {
    const result = await sendSigned(`http://127.0.0.1:${port}/redirect`, {}, '{}');
    expect(result.status).toBe(307);
    expect(hits).not.toContain('/elsewhere');
  });

  it('reads at most 64 KiB of an endless answer and still completes', async () => {
    const result = await sendSigned(`http://127.0.0.1:${port}/huge`, {}, '{}');
    expect(result.status).toBe(200);
  });
});
