import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acmeProduction, EMAILS, expect, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { startSmtp } from '../support/smtp-receiver';
import { spawnServer } from '../support/spawn-server';
import { startReceiver } from '../support/webhook-receiver';
import { createWebhook } from '../support/webhooks';

// A server whose loops poll once in ten minutes: whatever it sends within seconds, it sent because it was woken.
// On the embedded database only: on PostgreSQL the main test server's loops share the database and would send
// the same rows at their own polls.
test.describe('webhook deliveries and emails queued on an instance are sent at once, not at the next poll', () => {
  test.skip(!!process.env.DATABASE_URL, 'the embedded database: its own rows, no other instance polling them');
  test.setTimeout(120_000);

  test('an event is sent when queued and again when its retry falls due; an email when queued', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-wake-'));
    const [receiver, smtp] = await Promise.all([startReceiver(E2E.port + 36), startSmtp(E2E.port + 37)]);
    const server = await spawnServer(E2E.port + 35, {
      DATA_DIR: dir,
      SEED_DEMO: '1',
      BACKGROUND_START_DELAY_MS: '0',
      WEBHOOK_POLL_MS: '600000',
      WEBHOOK_ALLOW_LOOPBACK: '1',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      SMTP_URL: `smtp://127.0.0.1:${E2E.port + 37}`,
      MAIL_FROM: 'svc-console-e2e@localhost',
    });
    try {
      const ada = await sessionFor('ada', server.url);
      const bob = await sessionFor('bob', server.url);
      const { acme } = await acmeProduction(ada);
      await createWebhook(ada, acme, { url: `${receiver.url}/wake`, events: ['api_key.created'] });
      // The first attempt fails (retryable), the second is accepted.
      receiver.respond((_, count) => ({ status: count === 1 ? 503 : 204 }));

      const key = await createKey(bob, acme, { name: `woken-${Date.now()}` });
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
      const [first, retry] = receiver.received;
      expect(retry.id).toBe(first.id);
      // Not before its due time: the schedule's 1 s less its jitter (±20 %), counted from the failure's record,
      // which follows the first attempt's arrival.
      expect(retry.at - first.at).toBeGreaterThanOrEqual(800);

      // Revoking someone else's key emails its owner.
      expect((await ada.delete(`/v1/organizations/${acme}/api-keys/${key.apiKey.id}`)).status()).toBe(204);
      await expect.poll(() => smtp.to(EMAILS.bob, key.apiKey.name).length, { timeout: 10_000 }).toBe(1);
      await Promise.all([ada.dispose(), bob.dispose()]);
    } finally {
      await server.stop();
      await Promise.all([receiver.close(), smtp.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
