import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, sendSigned } from './send';

// A real receiver on 127.0.0.1; `localhost` reaches it only through DNS, so it exercises the connection-time check.
let server: http.Server;
let port = 0;
const hits: string[] = [];
const held: http.ServerResponse[] = [];
const connections: Socket[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url!);
    req.resume();
    if (req.url === '/redirect') return res.writeHead(307, { location: '/elsewhere' }).end();
    if (req.url === '/huge' || req.url === '/huge-error') {
      res.writeHead(req.url === '/huge' ? 200 : 500);
      // Far more than the 64 KiB a delivery reads; the sender stops reading and the request still completes.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const write = () => {
        while (res.write(chunk)) if (res.writableLength > 16 * MAX_ANSWER_BYTES) break;
      };
      write();
      res.on('drain', write);
      return;
    }
    if (req.url === '/cut') {
      // An answer that promises more than it sends, then the connection breaks.
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"failed": [');
      return void setTimeout(() => res.socket?.destroy(), 20);
    }
    if (req.url === '/long-text') return void res.writeHead(200).end('y'.repeat(3 * MAX_ANSWER_BYTES));
    if (req.url === '/hold') return void held.push(res);
    res.writeHead(202, { 'retry-after': '7' }).end('ok');
  });
  server.on('connection', (socket) => connections.push(socket));
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

  it('reads a 2xx answer to its end: an endless one is no answer within the timeout', async () => {
    const result = await sendSigned(`http://127.0.0.1:${port}/huge`, {}, '{}', 1_000);
    expect(result).toMatchObject({ status: null, errorClass: 'timeout' });
  });

  it('reads a long finite 2xx answer whole, keeping its first 64 KiB', async () => {
    const result = await sendSigned(`http://127.0.0.1:${port}/long-text`, {}, '{}');
    expect(result).toMatchObject({ status: 200, answerWhole: false });
    expect(result.answer).toHaveLength(MAX_ANSWER_BYTES);
  });

  it('reads at most 64 KiB of an endless error and completes', async () => {
    const result = await sendSigned(`http://127.0.0.1:${port}/huge-error`, {}, '{}', 5_000);
    expect(result).toMatchObject({ status: 500, answerWhole: false });
  });

  it('a connection that breaks before the answer ends is no answer, whatever its status', async () => {
    const result = await sendSigned(`http://127.0.0.1:${port}/cut`, {}, '{}');
    expect(result).toMatchObject({ status: null, errorClass: 'connection' });
    expect(result.error).toMatch(/before its end/);
  });

  it('keeps the connection to a target alive between requests', async () => {
    const before = connections.length;
    for (let i = 0; i < 5; i++) expect((await sendSigned(`http://127.0.0.1:${port}/ok`, {}, '{}')).status).toBe(202);
    expect(connections.length - before).toBeLessThanOrEqual(1);
  });

  it('sends again on a new connection when the kept one was closed by the target meanwhile', async () => {
    expect((await sendSigned(`http://127.0.0.1:${port}/ok`, {}, '{}')).status).toBe(202);
    // The target drops its idle connections without telling.
    for (const socket of connections) socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await sendSigned(`http://127.0.0.1:${port}/ok`, {}, '{}')).toMatchObject({ status: 202 });
  });

  it('a cancel closes the connection before the result comes, and the result says cancelled', async () => {
    const cancel = new AbortController();
    const sending = sendSigned(`http://127.0.0.1:${port}/hold`, {}, '{}', 10_000, cancel.signal);
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const socket = held[0].socket!;
    let closed = false;
    socket.on('close', () => (closed = true));
    cancel.abort();
    const result = await sending;
    expect(result).toMatchObject({ status: null, cancelled: true });
    // The target sees its request's connection closed at most a moment later (its end of the same socket).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });
});
