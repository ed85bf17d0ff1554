import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { insertDueWebhookDelivery } from '../../server/testing/webhooks';
import { webhookChannel, webhookDeliveryLoop } from './worker';

process.env.ENCRYPTION_KEY ??= randomBytes(32).toString('base64');
process.env.WEBHOOK_ALLOW_LOOPBACK = '1';

/** A receiver that holds every request until told to answer. */
const held: ServerResponse[] = [];
/** Whether each held request's connection has closed. */
const closed: boolean[] = [];
const receiver = createServer((req, res) => {
  const i = closed.push(false) - 1;
  req.socket.on('close', () => (closed[i] = true));
  req.resume().once('end', () => held.push(res));
});
beforeAll(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('webhook deliveries at shutdown', () => {
  withEmptyEmbeddedDatabase('webhook-release');

  it('a delivery being sent is cancelled, its connection closed, then handed back: due at once under the same attempt', async () => {
    const { delivery } = await insertDueWebhookDelivery(
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    );
    expect(await webhookDeliveryLoop.job.run!()).toBe(1);
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    // The receiver holds the request past the shutdown's grace: the delivery is handed back.
    await webhookDeliveryLoop.job.release!();
    expect(webhookDeliveryLoop.inFlight()).toBe(0);
    // Closed before the release returned: no other instance may send it while this request is open.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toEqual([true]);
    const row = async () =>
      (await (await getDb()).select().from(t.webhookDeliveries).where(eq(t.webhookDeliveries.id, delivery.id)))[0];
    expect(await row()).toMatchObject({ state: 'pending', attempts: 0, lockedUntil: null });
    // Another instance claims it at once, as attempt 1 again.
    expect((await webhookChannel.claim(20)).map((d) => [d.id, d.attempt])).toEqual([[delivery.id, 1]]);
    // The first request's answer, written to its closed connection, records nothing over the other instance's claim.
    held.shift()!.writeHead(200).end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await row()).toMatchObject({ state: 'pending', attempts: 1, lockedUntil: expect.any(Date) });
    const attempts = await (
      await getDb()
    )
      .select()
      .from(t.webhookAttempts)
      .where(eq(t.webhookAttempts.deliveryId, delivery.id));
    expect(attempts).toEqual([]);
  });
});
