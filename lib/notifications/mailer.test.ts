import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { emailChannel, emailDeliveryLoop } from './mailer';

/** An SMTP server that accepts and never greets: a send hangs until its connection is cut. */
const sockets: Socket[] = [];
const smtp = createServer((socket) => void sockets.push(socket));
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

describe('emails at shutdown', () => {
  withEmptyEmbeddedDatabase('mailer-release');

  it('an email being sent is handed back: due at once under the same attempt, and the late failure records nothing', async () => {
    const db = await getDb();
    const [user] = await db
      .insert(t.users)
      .values({ email: `release-${Date.now()}@example.test`, name: 'Release' })
      .returning();
    const [email] = await db
      .insert(t.notifications)
      .values({ userId: user.id, kind: 'test', subject: 'Hello', body: 'Body', emailState: 'pending' })
      .returning();
    expect(await emailDeliveryLoop.job.run!()).toBe(1);
    while (sockets.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await emailDeliveryLoop.job.release!();
    expect(emailDeliveryLoop.inFlight()).toBe(0);
    const row = async () => (await db.select().from(t.notifications).where(eq(t.notifications.id, email.id)))[0];
    expect(await row()).toMatchObject({ emailState: 'pending', emailAttempts: 0, emailLockedUntil: null });
    // Another instance claims it at once, as attempt 1 again.
    expect((await emailChannel.claim(20)).map((e) => [e.id, e.attempt])).toEqual([[email.id, 1]]);
    const claimed = await row();
    // The first send fails after all: its result is not recorded over the other instance's claim.
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await row()).toEqual(claimed);
  });
});
