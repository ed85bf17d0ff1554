import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acmeProduction, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { startQueueReceiver, until, type QueueReceiver } from '../support/queue-receiver';
import { spawnServer, type Spawned } from '../support/spawn-server';

type Delivery = { id: string; messages: number; outcome: string; status: number | null };

// An instance killed while it sends a batch never records that attempt. On a server of its own (the embedded
// database: it is the only deliverer, so the batch in flight is surely its own): the batch goes out again once its
// lease runs out, and the deliveries list says what became of the first attempt. queues-instances.spec.ts kills one
// of two instances on PostgreSQL mid-drain.
test.describe('a batch in flight when its instance is killed', () => {
  test.skip(!!process.env.DATABASE_URL, 'PGlite: a server of its own is the only deliverer');
  // Two starts of a server on a fresh embedded database and a lease of 31 s: minutes on a loaded machine.
  test.describe.configure({ timeout: 240_000 });

  let server: Spawned | undefined;
  let receiver: QueueReceiver | undefined;
  let dir: string | undefined;
  test.afterAll(async () => {
    await Promise.all([server?.stop(), receiver?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('goes out again after its lease, and its first attempt lists as abandoned', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'svc-queue-crash-'));
    const port = E2E.port + 86;
    const env = { DATA_DIR: dir, WEBHOOK_ALLOW_LOOPBACK: '1', QUEUE_POLL_MS: '100' };
    [server, receiver] = await Promise.all([
      spawnServer(port, { ...env, SEED_DEMO: '1' }),
      startQueueReceiver(E2E.port + 87),
    ]);
    let ada = await sessionFor('ada', server.url);
    const { acme, production } = await acmeProduction(ada);
    const base = `/v1/organizations/${acme}/projects/${production}`;

    const queue = await ada.post(`${base}/queues`, { data: { name: 'crash' } });
    expect(queue.status()).toBe(201);
    const queueId = ((await queue.json()) as { id: string }).id;
    const created = await ada.post(`${base}/subscriptions`, {
      data: { queueId, target: { kind: 'https', url: receiver.freshUrl(), timeoutSeconds: 1 }, batchSize: 10 },
    });
    expect(created.status()).toBe(201);
    const sub = (await created.json()) as { id: string; signingSecret: string };
    receiver.verifyWith(sub.signingSecret);
    // The first request is held past the kill; later ones are answered at once.
    receiver.respond(() => ({ status: 204, holdMs: receiver!.state.batches.length === 1 ? 10_000 : 0 }));

    const published = await ada.post(`${base}/queues/${queueId}/messages`, {
      data: { messages: [{ body: { n: 1 } }, { body: { n: 2 } }, { body: { n: 3 } }] },
    });
    expect(published.status()).toBe(202);
    const ids = ((await published.json()) as { messageIds: string[] }).messageIds;
    await until(() => receiver!.state.batches.length === 1, 30_000);
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    await ada.dispose();

    server = await spawnServer(port, env);
    ada = await sessionFor('ada', server.url);
    const deliveries = async () =>
      ((await (await ada.get(`${base}/subscriptions/${sub.id}/deliveries`)).json()) as { items: Delivery[] }).items;
    // The lease is the timeout (1 s) and a margin of 30 s: until then the batch waits, and its attempt is in flight.
    const [first] = await deliveries();
    expect(first).toMatchObject({ messages: 3, outcome: 'in_flight', status: null });
    await until(() => receiver!.state.batches.length === 2, 60_000);
    expect(receiver.state.batches.map((b) => b.messages.map((m) => m.id).sort())).toEqual([
      [...ids].sort(),
      [...ids].sort(),
    ]);
    // An attempt never recorded uses none up (docs/queues.md, "Retries"): the batch goes out as attempt 1 again.
    expect(receiver.state.batches[1].messages.map((m) => m.attempt)).toEqual([1, 1, 1]);
    expect(receiver.state.badSignatures).toBe(0);
    let listed: Delivery[] = [];
    await until(async () => (listed = await deliveries()).length === 2 && listed[0].outcome === 'delivered');
    const [again, abandoned] = listed;
    expect(again).toMatchObject({ messages: 3, outcome: 'delivered', status: 204 });
    expect(abandoned).toMatchObject({ id: first.id, messages: 3, outcome: 'abandoned', status: null });
    await ada.dispose();
  });
});
