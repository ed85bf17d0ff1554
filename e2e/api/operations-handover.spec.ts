import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sealSecret } from '../../lib/crypto/secret-box';
import { resetSettings } from '../../lib/settings/settings';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';

const PORT = E2E.port + 54;
const RECEIVER_PORT = E2E.port + 55;

test.describe('what a stopping instance holds is handed back', () => {
  test.skip(!!process.env.DATABASE_URL, 'on PostgreSQL the test servers would claim the delivery too');
  test.describe.configure({ timeout: 180_000 });

  test('a webhook delivery being sent at SIGTERM is due again when the process has exited, under the same attempt', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-handover-'));
    const keyBefore = process.env.ENCRYPTION_KEY;
    // A receiver that never answers: the delivery is still being sent when the signal comes.
    const requests: ServerResponse[] = [];
    const receiver = createServer((req, res) => void req.resume().once('end', () => requests.push(res)));
    await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, '127.0.0.1', resolve));
    const env = { DATA_DIR: dir, WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_POLL_MS: '100', BACKGROUND_START_DELAY_MS: '0' };
    const open = async <T>(fn: (db: PGlite) => Promise<T>) => {
      const db = new PGlite(path.join(dir, 'pglite'), { extensions: { pg_trgm } });
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    };
    let server: Spawned | undefined;
    try {
      await (await spawnServer(PORT, env)).stop(); // migrated
      // The webhook's secret is sealed here under the servers' key. The settings module reads the environment once
      // per process, and an earlier file in this worker may have read it already.
      process.env.ENCRYPTION_KEY = E2E.encryptionKey;
      resetSettings();
      const deliveryId = await open(async (db) => {
        const org = randomUUID();
        const hook = randomUUID();
        await db.query('insert into organizations (id, name) values ($1, $2)', [org, 'Handover']);
        await db.query(
          `insert into webhooks (id, organization_id, url, events, secret_box) values ($1, $2, $3, '{*}', $4)`,
          [
            hook,
            org,
            `http://127.0.0.1:${RECEIVER_PORT}/hook`,
            sealSecret(`whsec_${randomBytes(32).toString('base64')}`, `webhook:${hook}`),
          ],
        );
        const { rows } = await db.query<{ id: string }>(
          `insert into webhook_deliveries (organization_id, webhook_id, message_id, event_type, payload, next_attempt_at)
           values ($1, $2, $3, 'webhook.test', '{}', now()) returning id`,
          [org, hook, randomUUID()],
        );
        return rows[0].id;
      });

      server = await spawnServer(PORT, env);
      // Bounded, so a delivery never sent fails here and the server is stopped below, not left on its port.
      await expect.poll(() => requests.length, { timeout: 60_000 }).toBeGreaterThan(0);
      const { child } = server;
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);

      const row = await open((db) =>
        db.query('select state, attempts, locked_until from webhook_deliveries where id = $1', [deliveryId]),
      );
      expect(row.rows).toEqual([{ state: 'pending', attempts: 0, locked_until: null }]);
    } finally {
      await server?.stop();
      if (keyBefore === undefined) delete process.env.ENCRYPTION_KEY;
      else process.env.ENCRYPTION_KEY = keyBefore;
      resetSettings();
      requests.forEach((res) => res.destroy());
      receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
