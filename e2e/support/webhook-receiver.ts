import http from 'node:http';
import { Webhook } from 'standardwebhooks';

export type Received = { id: string; timestamp: string; signature: string; body: string; at: number };
export type Answer = { status: number; headers?: Record<string, string> };

/**
 * A webhook receiver on 127.0.0.1: records every request and answers from a script (`answers`, then 204).
 * `verify(secret)` checks every recorded delivery with the standardwebhooks package, as a real receiver would.
 */
export async function startReceiver(port: number) {
  const received: Received[] = [];
  const script: Answer[] = [];
  let responder: ((request: Received, count: number) => Answer) | null = null;
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      counts.set(request.id, (counts.get(request.id) ?? 0) + 1);
      const answer = responder ? responder(request, counts.get(request.id)!) : (script.shift() ?? { status: 204 });
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Answers by a rule instead: given the request and how many times its webhook-id has arrived. */
    respond: (rule: (request: Received, count: number) => Answer) => {
      responder = rule;
    },
    /** Answers the next requests with these, in order. */
    answer: (...answers: Answer[]) => script.push(...answers),
    /** The payload of each delivery, each verified with `secret` (throws on a bad signature). */
    verify: (secret: string, of = received) =>
      of.map(
        (r) =>
          new Webhook(secret).verify(r.body, {
            'webhook-id': r.id,
            'webhook-timestamp': r.timestamp,
            'webhook-signature': r.signature,
          }) as { type: string; timestamp: string; data: Record<string, unknown> },
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
