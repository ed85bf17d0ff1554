/**
 * `npm run bench`'s queue phase: how fast subscriptions deliver, as a ratio to a floor measured in the same run,
 * posting the same batches straight to the same receiver (a Node loop with as many requests in flight as the
 * subscription's `maxConcurrency`), before the drain's backlog is published and right after the drain (the ratio takes
 * their mean). The receiver answers 204 at once, so both measure the sender's side.
 *
 * Drain: a paused subscription's backlog of BENCH_QUEUE_MESSAGES (20,000) is resumed, and the time until the
 * receiver holds every message gives messages per second; then the same drain again while 16 clients publish
 * one message at a time to another queue (its subscription paused: each publish writes the rows a claim reads).
 * Latency: then one message every 20 ms for 5 s, each timed from its publish's answer to its arrival (p50, p99).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { cpuMs, sampleApp, samplePostgres, type Sample } from './cpu';

const MESSAGES = Number(process.env.BENCH_QUEUE_MESSAGES ?? 20_000);
const BATCH_SIZE = 10;
const CONCURRENCY = 20;
const FLOOR_SECONDS = 5;
const PUBLISHERS = 16;

export type QueueFigures = {
  deliveredPerSecond: number;
  /** The same drain while PUBLISHERS clients publish to another queue, and what they published meanwhile. */
  deliveredWhilePublishingPerSecond: number;
  publishedPerSecond: number;
  /** The mean of the floor measured before the drain and after it (`floorsPerSecond`). */
  floorPerSecond: number;
  floorsPerSecond: [number, number];
  ratio: number;
  floorP99: number;
  latencyP50: number;
  latencyP99: number;
  duplicates: number;
  /** CPU milliseconds per POST of the drain alone: the instances' process trees, and PostgreSQL's backends. */
  appCpuMsPerBatch: number;
  dbCpuMsPerBatch: number | null;
  /** When each drain ran (monotonic µs, the CPU profiles' clock) and its POSTs, for bench/profile.ts. */
  windows: { name: string; start: number; end: number; requests: number }[];
};

/** Where the drain's CPU is counted: the instances' processes, and the database's backends on PostgreSQL. */
export type QueueMeter = { appPids: number[]; pg?: { admin: pg.Client; database: string } };

type Receiver = {
  url: string;
  arrivals: Map<string, number>;
  count: number;
  requests: number;
  close: () => Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const receiver = { url: '', arrivals, count: 0, requests: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { id: string }[] };
      receiver.requests++;
      for (const m of body.messages) {
        receiver.count++;
        if (!arrivals.has(m.id)) arrivals.set(m.id, now);
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sink`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

const p = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** The floor: batches like the subscription's, posted straight to the receiver, CONCURRENCY at a time. */
async function floor(receiver: Receiver): Promise<{ perSecond: number; p99: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const message = (i: number) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    body: { n: i },
    attributes: {},
    publishedAt: new Date().toISOString(),
    attempt: 1,
  });
  let sent = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + FLOOR_SECONDS * 1000;
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(receiver.url, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', (res) => res.resume().on('end', () => resolve()));
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const batch = Array.from({ length: BATCH_SIZE }, () => message(sent++));
        const start = performance.now();
        await post(JSON.stringify({ subscriptionId: 'x', queueId: 'y', deliveryId: 'z', messages: batch }));
        latencies.push(performance.now() - start);
      }
    }),
  );
  agent.destroy();
  receiver.arrivals.clear();
  receiver.count = 0;
  return {
    perSecond: sent / FLOOR_SECONDS,
    p99: p(
      latencies.sort((a, b) => a - b),
      0.99,
    ),
  };
}

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/** Drains a backlog through `bases` (every instance delivers) and times single messages end to end. */
export async function measureQueueDelivery(
  bases: string[],
  project: { adminKey: string; orgId: string; projectId: string },
  meter?: QueueMeter,
): Promise<QueueFigures> {
  const receiver = await startReceiver();
  try {
    const { adminKey: key } = project;
    const scope = `/v1/organizations/${project.orgId}/projects/${project.projectId}`;
    const floorFigures = await floor(receiver);
    const subscribed = async (name: string, url: string) => {
      const queue = await call(bases[0], key, 'POST', `${scope}/queues`, {
        name: `${name}-${Date.now().toString(36)}`,
      });
      const sub = await call(bases[0], key, 'POST', `${scope}/subscriptions`, {
        queueId: queue.id,
        target: { kind: 'https', url, timeoutSeconds: 30 },
        batchSize: BATCH_SIZE,
        maxConcurrency: CONCURRENCY,
        state: 'paused',
      });
      return { queueId: queue.id as string, subscriptionId: sub.id as string };
    };
    /** A paused subscription's backlog of MESSAGES, resumed: seconds until the receiver holds every message. */
    const drain = async (during?: () => Promise<void>) => {
      const { queueId, subscriptionId } = await subscribed('bench', receiver.url);
      for (let sent = 0; sent < MESSAGES; sent += 100)
        await call(bases[(sent / 100) % bases.length], key, 'POST', `${scope}/queues/${queueId}/messages`, {
          messages: Array.from({ length: Math.min(100, MESSAGES - sent) }, (_, i) => ({ body: { n: sent + i } })),
        });
      receiver.arrivals.clear();
      receiver.count = 0;
      receiver.requests = 0;
      const cpuBefore = await sampleCpu(meter);
      const load = during?.();
      const start = performance.now();
      const startMicros = Number(process.hrtime.bigint() / 1000n);
      await call(bases[0], key, 'POST', `${scope}/subscriptions/${subscriptionId}/resume`);
      try {
        while (receiver.arrivals.size < MESSAGES) {
          if (performance.now() - start > 600_000)
            throw new Error(`only ${receiver.arrivals.size} of ${MESSAGES} arrived`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        stopPublishing();
        await load;
      }
      const cpuAfter = await sampleCpu(meter);
      const perBatch = (which: 'app' | 'db') => {
        const [before, after] = [cpuBefore?.[which], cpuAfter?.[which]];
        return before && after ? cpuMs(before, after) / Math.max(1, receiver.requests) : null;
      };
      return {
        seconds: (Math.max(...receiver.arrivals.values()) - start) / 1000,
        window: {
          name: during ? 'drain while publishing (per POST)' : 'drain (per POST)',
          start: startMicros,
          end: Number(process.hrtime.bigint() / 1000n),
          requests: Math.max(1, receiver.requests),
        },
        queueId,
        appCpuMsPerBatch: perBatch('app') ?? 0,
        dbCpuMsPerBatch: perBatch('db'),
      };
    };
    let publishing = false;
    const stopPublishing = () => (publishing = false);
    // Publishers to a queue whose subscription is paused: every publish writes the rows a drain claims from.
    const other = await subscribed('bench-publishers', receiver.url);
    let published = 0;
    const publishers = async () => {
      publishing = true;
      await Promise.all(
        Array.from({ length: PUBLISHERS }, async (_, c) => {
          for (let i = 0; publishing; i++) {
            await call(bases[(c + i) % bases.length], key, 'POST', `${scope}/queues/${other.queueId}/messages`, {
              messages: [{ body: { c, i } }],
            });
            published++;
          }
        }),
      );
    };
    const alone = await drain();
    const drained = alone.seconds;
    const duplicates = receiver.count - receiver.arrivals.size;
    // The floor again, right after the drain: on a shared machine it moves by half between minutes, so the ratio
    // takes the mean of the floor on both sides of the drain.
    const floorAfter = await floor(receiver);
    const whilePublishing = await drain(publishers);
    const queue = { id: alone.queueId };

    const latencies: number[] = [];
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 250; i++) {
      const answered = await call(bases[i % bases.length], key, 'POST', `${scope}/queues/${queue.id}/messages`, {
        messages: [{ body: { latency: i } }],
      });
      const at = performance.now();
      const [id] = answered.messageIds as string[];
      pending.push(
        (async () => {
          for (let waited = 0; !receiver.arrivals.has(id) && waited < 30_000; waited += 5)
            await new Promise((resolve) => setTimeout(resolve, 5));
          latencies.push(Math.max(0, (receiver.arrivals.get(id) ?? performance.now()) - at));
        })(),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(pending);
    latencies.sort((a, b) => a - b);
    const deliveredPerSecond = MESSAGES / drained;
    const floorPerSecond = (floorFigures.perSecond + floorAfter.perSecond) / 2;
    return {
      deliveredPerSecond,
      deliveredWhilePublishingPerSecond: MESSAGES / whilePublishing.seconds,
      publishedPerSecond: published / whilePublishing.seconds,
      floorPerSecond,
      floorsPerSecond: [floorFigures.perSecond, floorAfter.perSecond],
      ratio: deliveredPerSecond / floorPerSecond,
      floorP99: Math.max(floorFigures.p99, floorAfter.p99),
      latencyP50: p(latencies, 0.5),
      latencyP99: p(latencies, 0.99),
      duplicates,
      appCpuMsPerBatch: alone.appCpuMsPerBatch,
      dbCpuMsPerBatch: alone.dbCpuMsPerBatch,
      windows: [alone.window, whilePublishing.window],
    };
  } finally {
    await receiver.close();
  }
}

async function sampleCpu(meter?: QueueMeter): Promise<{ app: Sample; db?: Sample } | null> {
  if (!meter) return null;
  const app = new Map(meter.appPids.flatMap((pid) => [...sampleApp(pid)]));
  return { app, db: meter.pg && (await samplePostgres(meter.pg.admin, meter.pg.database)) };
}

export function printQueueFigures(label: string, f: QueueFigures, goal: number | null): void {
  console.log(
    `\nQueue deliveries, ${label}: batches of ${BATCH_SIZE}, maxConcurrency ${CONCURRENCY}, ${MESSAGES} messages`,
  );
  console.log(
    `  floor (the same batches posted straight to the receiver): ${Math.round(f.floorPerSecond).toLocaleString('en')} messages/s ` +
      `(before the drain ${f.floorsPerSecond.map((n) => Math.round(n).toLocaleString('en')).join(', after ')}), p99 ${f.floorP99.toFixed(1)} ms per batch`,
  );
  console.log(
    `  delivered: ${Math.round(f.deliveredPerSecond).toLocaleString('en')} messages/s, ratio ${f.ratio.toFixed(3)}` +
      (goal ? ` (goal ≥ ${goal}: ${f.ratio >= goal ? 'met' : 'MISSED'})` : '') +
      `; ${f.duplicates} duplicates`,
  );
  console.log(
    `  CPU per batch (POST) of the drain: app ${f.appCpuMsPerBatch.toFixed(2)} ms` +
      (f.dbCpuMsPerBatch === null ? '' : `, database ${f.dbCpuMsPerBatch.toFixed(2)} ms`),
  );
  console.log(
    `  while ${PUBLISHERS} clients publish one message each to another queue (${Math.round(f.publishedPerSecond).toLocaleString('en')} publishes/s): ` +
      `${Math.round(f.deliveredWhilePublishingPerSecond).toLocaleString('en')} messages/s, ${(f.deliveredWhilePublishingPerSecond / f.deliveredPerSecond).toFixed(2)} of the drain alone (goal ≥ 0.7)`,
  );
  console.log(
    `  one message, publish answered → arrival: p50 ${f.latencyP50.toFixed(1)} ms, p99 ${f.latencyP99.toFixed(1)} ms`,
  );
}
