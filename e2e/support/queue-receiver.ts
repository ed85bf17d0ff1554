import http, { type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Batch = {
  deliveryId: string;
  subscriptionId: string;
  messages: { id: string; body: unknown; attributes: Record<string, string>; attempt: number }[];
};
export type Answer = {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  holdMs?: number;
  /** Sends this many bytes of the body (its full length announced), then breaks the connection. */
  breakAfter?: number;
};

/**
 * A subscription's target on 127.0.0.1, as a real receiver: verifies each batch's Standard Webhooks signature with
 * the secret it is given, holds each request `holdMs`, counts how many are in flight at once (the highest count is
 * what `maxConcurrency` promises), and answers by a rule (204 by default).
 */
export async function startQueueReceiver(port: number) {
  let secret: string | null = null;
  let rule: (batch: Batch) => Answer = () => ({ status: 204 });
  // The requests open now, each with its sender's port and whether it counts in flight: `reset` stops counting those
  // open at that moment (an earlier test's request held open past its end), so a new count starts from what the next
  // test sends.
  const open = new Map<IncomingMessage, { port: number; counted: boolean }>();
  const inFlight = () => [...open.values()].filter((entry) => entry.counted).length;
  // After `freshUrl`, only requests to that URL count: an earlier test's redelivery (its lease ran out after that
  // test had seen every message) is answered and left out.
  let only: string | null = null;
  let urls = 0;
  const state = { maxInFlight: 0, batches: [] as Batch[], badSignatures: 0, bodyBytes: [] as number[] };
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (only !== null && req.url !== only) {
      req.resume().on('end', () => res.writeHead(204).end());
      return;
    }
    const chunks: Buffer[] = [];
    open.set(req, { port: req.socket.remotePort!, counted: true });
    state.maxInFlight = Math.max(state.maxInFlight, inFlight());
    // Open until answered or until the sender closes its connection (a cancel at its shutdown). The sender's close is
    // seen as its end of stream arrives, in the same turn of the event loop: the response's own close comes a turn or
    // two later, when another sender's new request may already have been counted.
    const socket = req.socket;
    const ended = () => {
      socket.off('end', ended).off('error', ended);
      open.delete(req);
    };
    res.on('close', ended);
    socket.on('end', ended).on('error', ended);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.bodyBytes.push(Buffer.concat(chunks).length);
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      let batch: Batch;
      try {
        batch = (secret ? new Webhook(secret).verify(body, headers) : JSON.parse(body)) as Batch;
      } catch {
        state.badSignatures++;
        batch = JSON.parse(body) as Batch;
      }
      state.batches.push(batch);
      const answer = rule(batch);
      setTimeout(() => {
        if (!open.has(req)) return;
        ended();
        if (answer.status === 0) return void req.socket.destroy();
        if (answer.breakAfter === undefined) return void res.writeHead(answer.status, answer.headers).end(answer.body);
        const body = Buffer.from(answer.body ?? '');
        res.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length) });
        res.write(body.subarray(0, answer.breakAfter), () => setTimeout(() => req.socket.destroy(), 20));
      }, answer.holdMs ?? 0);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/sink`,
    /** A URL of its own for the next subscription; from now on requests to any other URL are not counted. */
    freshUrl: () => {
      only = `/sink/${++urls}`;
      return `http://127.0.0.1:${port}${only}`;
    },
    state,
    /** The sender-side port of each request open now: which process holds each (a test may look it up). */
    openPorts: () => [...open.values()].map((entry) => entry.port),
    /** Each message id delivered, once per delivery that carried it. */
    messageIds: () => state.batches.flatMap((b) => b.messages.map((m) => m.id)),
    verifyWith: (s: string) => void (secret = s),
    respond: (r: (batch: Batch) => Answer) => void (rule = r),
    reset: () => {
      for (const entry of open.values()) entry.counted = false;
      Object.assign(state, { maxInFlight: 0, batches: [], badSignatures: 0, bodyBytes: [] });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export type QueueReceiver = Awaited<ReturnType<typeof startQueueReceiver>>;

/** Polls `check` every 100 ms until it returns true, for at most `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not reached within ${ms} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
