import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { acmeProduction, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { startQueueReceiver, until, type QueueReceiver } from '../support/queue-receiver';
import { spawnServer, type Spawned } from '../support/spawn-server';

// A rolling deploy keeps the cap: an instance told to stop (SIGTERM) while it holds a request open closes that
// connection before it gives the messages back, so the other instance never sends while it is open. Two instances
// on a PostgreSQL database of this file's own, so they are the only deliverers.
const PG_BASE = Object.assign(new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432'), {
  pathname: '',
}).href.replace(/\/$/, '');
const DATABASE = `svc_e2e_shutdown_${E2E.port}`;
const PORTS = [E2E.port + 97, E2E.port + 98] as const;

/** Which of `servers` holds the TCP connection whose local port is `port` (read from /proc). */
function holder(port: number, servers: Spawned[]): Spawned | undefined {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inode = ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .find((cols) => cols[1]?.endsWith(hex))?.[9];
  if (!inode) return undefined;
  return servers.find((s) =>
    readdirSync(`/proc/${s.child.pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${s.child.pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    }),
  );
}

test.describe('SIGTERM with a delivery open', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): two instances on one database');
  test.describe.configure({ mode: 'serial', timeout: 180_000 });

  let admin: pg.Client;
  const servers: Spawned[] = [];
  let receiver: QueueReceiver;
  let ada: APIRequestContext;
  let base: string;
  const env = (seed: boolean) => ({
    DATABASE_URL: `${PG_BASE}/${DATABASE}`,
    SEED_DEMO: seed ? '1' : '0',
    WEBHOOK_ALLOW_LOOPBACK: '1',
    QUEUE_POLL_MS: '50',
  });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin.query(`create database ${DATABASE}`);
    receiver = await startQueueReceiver(E2E.port + 99);
    servers.push(await spawnServer(PORTS[0], env(true)));
    servers.push(await spawnServer(PORTS[1], env(false)));
    ada = await sessionFor('ada', servers[0].url);
    const { acme, production } = await acmeProduction(ada);
    base = `/v1/organizations/${acme}/projects/${production}`;
    // Background jobs start a few seconds after the database opens: then both instances deliver.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
  });
  test.afterAll(async () => {
    await ada?.dispose();
    await Promise.all([...servers.map((s) => s.stop()), receiver?.close()]);
    await admin?.query(`drop database if exists ${DATABASE} with (force)`);
    await admin?.end();
  });

  for (const trial of [1, 2, 3])
    test(`trial ${trial}: maxConcurrency 1 holds: the receiver never sees two requests open at once`, async () => {
      receiver.reset();
      // Each request is held past the stopping instance's grace (2 s), so it is open when the instance must stop.
      receiver.respond(() => ({ status: 204, holdMs: 6_000 }));
      const queue = await ada.post(`${base}/queues`, {
        data: { name: `shutdown-${trial}-${Date.now().toString(36)}` },
      });
      const queueId = ((await queue.json()) as { id: string }).id;
      const created = await ada.post(`${base}/subscriptions`, {
        data: {
          queueId,
          target: { kind: 'https', url: receiver.freshUrl(), timeoutSeconds: 10 },
          batchSize: 1,
          maxConcurrency: 1,
        },
      });
      expect(created.status()).toBe(201);
      const published = await ada.post(`${base}/queues/${queueId}/messages`, {
        data: { messages: [{ body: { n: 1 } }, { body: { n: 2 } }] },
      });
      const ids = ((await published.json()) as { messageIds: string[] }).messageIds;

      await until(() => receiver.openPorts().length === 1, 30_000);
      const stopping = holder(receiver.openPorts()[0], servers);
      expect(stopping, 'the open request belongs to one of the two instances').toBeDefined();
      const at = servers.indexOf(stopping!);
      await stopping!.stop();
      // The other instance sends what the stopped one gave back, and the rest.
      await until(() => ids.every((id) => receiver.messageIds().includes(id)), 60_000);
      console.log(
        `trial ${trial}: instance ${at + 1} stopped with a request open; ${receiver.state.batches.length} requests, at most ${receiver.state.maxInFlight} open at once`,
      );
      expect(receiver.state.maxInFlight).toBe(1);
      // Restarted for the next trial, as a rolling deploy does.
      servers[at] = await spawnServer(PORTS[at], env(false));
      if (at === 0) {
        await ada.dispose();
        ada = await sessionFor('ada', servers[0].url);
      }
      await new Promise((resolve) => setTimeout(resolve, 5_500));
    });
});
