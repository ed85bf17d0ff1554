import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { queryRows } from '../db/statement';
import { emailChannel } from '../notifications/mailer';
import { MAX_EMAIL_ATTEMPTS } from '../notifications/email-service';
import { webhookChannel } from '../webhooks/worker';
import { onBothDatabases } from '../../server/testing/test-database';
import { insertDueWebhookDelivery, insertWebhookDelivery } from '../../server/testing/webhooks';
import { sendResult } from '../../server/testing/send-results';

process.env.ENCRYPTION_KEY ??= randomBytes(32).toString('base64');
process.env.WEBHOOK_ALLOW_LOOPBACK = '1';

const webhookRow = async (id: string) =>
  (await (await getDb()).select().from(t.webhookDeliveries).where(eq(t.webhookDeliveries.id, id)))[0];
const claimedWebhook = async (id: string) => (await webhookChannel.claim(100)).find((d) => d.id === id);

async function pendingEmail(label: string) {
  const db = await getDb();
  const [user] = await db
    .insert(t.users)
    .values({ email: `${label}-${randomUUID()}@example.test`, name: label })
    .returning();
  const [email] = await db
    .insert(t.notifications)
    .values({ userId: user.id, kind: 'test', subject: 'Hello', body: 'Body', emailState: 'pending' })
    .returning();
  return email;
}

const emailRow = async (id: string) =>
  (await (await getDb()).select().from(t.notifications).where(eq(t.notifications.id, id)))[0];
const claimedEmail = async (id: string) => (await emailChannel.claim(100)).find((e) => e.id === id);

/** Seconds between a row's due time and the database's clock now. */
async function dueInSeconds(at: Date | null): Promise<number> {
  const [row] = await queryRows<{ s: number }>(
    await getDb(),
    sql`select extract(epoch from (${at!.toISOString()}::timestamptz - now()))::float8 as s`,
  );
  return row.s;
}

await onBothDatabases('the engine’s rows', 'delivery-rows', () => {
  it('a webhook attempt is recorded once: a second record and a record after the lease was handed back move nothing', async () => {
    const { delivery } = await insertDueWebhookDelivery('http://127.0.0.1:9/hook');
    const claimed = (await claimedWebhook(delivery.id))!;
    expect(claimed.attempt).toBe(1);
    // Claimed rows are held: a second claim skips them.
    expect(await claimedWebhook(delivery.id)).toBeUndefined();
    await webhookChannel.record(claimed, sendResult(500), new Date(), false);
    const retried = await webhookRow(delivery.id);
    expect(retried).toMatchObject({ state: 'pending', attempts: 1, lockedUntil: null });
    // The retry's due time comes from the database's clock: the first delay of the schedule (5 s), ±20 %.
    const dueIn = await dueInSeconds(retried.nextAttemptAt);
    expect(dueIn).toBeGreaterThan(3);
    expect(dueIn).toBeLessThanOrEqual(6);
    await webhookChannel.record(claimed, sendResult(200), new Date(), false);
    expect(await webhookRow(delivery.id)).toEqual(retried);
    const attempts = await (
      await getDb()
    )
      .select()
      .from(t.webhookAttempts)
      .where(eq(t.webhookAttempts.deliveryId, delivery.id));
    expect(attempts.map((a) => [a.attempt, a.status, a.nextAttemptAt?.getTime()])).toEqual([
      [1, 500, retried.nextAttemptAt!.getTime()],
    ]);

    // Due now: claimed as attempt 2, handed back (shutdown), then its late answer records nothing.
    await (
      await getDb()
    )
      .update(t.webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 1_000) })
      .where(eq(t.webhookDeliveries.id, delivery.id));
    const second = (await claimedWebhook(delivery.id))!;
    expect(second.attempt).toBe(2);
    await webhookChannel.release(second);
    expect(await webhookRow(delivery.id)).toMatchObject({ state: 'pending', attempts: 1, lockedUntil: null });
    await webhookChannel.record(second, sendResult(200), new Date(), false);
    expect(await webhookRow(delivery.id)).toMatchObject({ state: 'pending', attempts: 1 });
    // Claimed again, it is attempt 2 again, and delivered.
    const again = (await claimedWebhook(delivery.id))!;
    expect(again.attempt).toBe(2);
    await webhookChannel.record(again, sendResult(204), new Date(), false);
    expect(await webhookRow(delivery.id)).toMatchObject({ state: 'delivered', nextAttemptAt: null, lockedUntil: null });
  });

  it('a webhook refused for good fails without disabling; an exhausted schedule disables its endpoint', async () => {
    const { delivery, webhookId } = await insertDueWebhookDelivery('http://127.0.0.1:9/hook');
    const claimed = (await claimedWebhook(delivery.id))!;
    await webhookChannel.record(claimed, sendResult(404), new Date(), false);
    expect(await webhookRow(delivery.id)).toMatchObject({ state: 'failed', nextAttemptAt: null });
    const endpoint = async () =>
      (await (await getDb()).select().from(t.webhooks).where(eq(t.webhooks.id, webhookId)))[0];
    expect((await endpoint()).enabled).toBe(true);

    // Its schedule used up (the default schedule has 7 delays): the next failure gives up and disables it.
    const next = await insertWebhookDelivery(delivery.organizationId, webhookId, { attempts: 7 });
    const last = (await claimedWebhook(next.id))!;
    expect(last.failedInSchedule).toBe(8);
    await webhookChannel.record(last, sendResult(503), new Date(), false);
    expect(await webhookRow(next.id)).toMatchObject({ state: 'failed', nextAttemptAt: null, lockedUntil: null });
    expect(await endpoint()).toMatchObject({ enabled: false });
    // A disabled endpoint's due deliveries are not claimed.
    const waiting = await insertWebhookDelivery(delivery.organizationId, webhookId);
    expect(await claimedWebhook(waiting.id)).toBeUndefined();
  });

  it('a webhook this instance cannot sign is handed back at once, its attempt number unspent', async () => {
    const { db, delivery, webhookId } = await insertDueWebhookDelivery('http://127.0.0.1:9/hook');
    await db.update(t.webhooks).set({ secretBox: 'not a sealed secret' }).where(eq(t.webhooks.id, webhookId));
    expect(await claimedWebhook(delivery.id)).toBeUndefined();
    expect(await webhookRow(delivery.id)).toMatchObject({ state: 'pending', attempts: 0, lockedUntil: null });
  });

  it('an email is retried a minute per attempt made, on the database’s clock, and given up after the last', async () => {
    const email = await pendingEmail('rows-email');
    const first = (await claimedEmail(email.id))!;
    expect(first.attempt).toBe(1);
    await emailChannel.record(first, sendResult(null), new Date(), false);
    const retried = await emailRow(email.id);
    expect(retried).toMatchObject({ emailState: 'pending', emailAttempts: 1 });
    const dueIn = await dueInSeconds(retried.emailLockedUntil);
    expect(dueIn).toBeGreaterThan(55);
    expect(dueIn).toBeLessThanOrEqual(60);
    // Not due yet: not claimed.
    expect(await claimedEmail(email.id)).toBeUndefined();

    const db = await getDb();
    await db
      .update(t.notifications)
      .set({ emailAttempts: MAX_EMAIL_ATTEMPTS - 1, emailLockedUntil: null })
      .where(eq(t.notifications.id, email.id));
    const last = (await claimedEmail(email.id))!;
    expect(last.attempt).toBe(MAX_EMAIL_ATTEMPTS);
    await emailChannel.record(last, sendResult(451), new Date(), false);
    expect(await emailRow(email.id)).toMatchObject({ emailState: 'failed', emailLockedUntil: null });

    const sent = await pendingEmail('rows-email-sent');
    const claimed = (await claimedEmail(sent.id))!;
    await emailChannel.record(claimed, sendResult(250), new Date(), false);
    expect(await emailRow(sent.id)).toMatchObject({ emailState: 'sent', emailAttempts: 1, emailLockedUntil: null });
  });
});
