import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acmeProduction, bearer, expect, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { spawnServer } from '../support/spawn-server';

test.describe('the unresolved-alert limit, said out loud', () => {
  test.skip(!!process.env.DATABASE_URL, 'PGlite only: a server of its own with ALERTS_MAX_PER_PROJECT=3');
  test.describe.configure({ timeout: 120_000 });

  test('beyond ALERTS_MAX_PER_PROJECT a new alert is refused and named; updates and resolves still pass', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-alert-limit-'));
    const server = await spawnServer(E2E.port + 80, { DATA_DIR: dir, SEED_DEMO: '1', ALERTS_MAX_PER_PROJECT: '3' });
    try {
      const ada = await sessionFor('ada', server.url);
      const { acme, production } = await acmeProduction(ada);
      const { secret } = await createKey(ada, acme, { name: 'alert limit', expiresInDays: 1 });
      const api = await bearer(secret, server.url);
      const alerts = `/alertmanager/${acme}/${production}/api/v2/alerts`;
      const post = (body: unknown) => api.post(alerts, { data: body });
      const names = async () =>
        ((await (await api.get(alerts)).json()) as { labels: { alertname: string } }[])
          .map((a) => a.labels.alertname)
          .sort();

      const five = ['A', 'B', 'C', 'D', 'E'].map((alertname) => ({ labels: { alertname } }));
      const refused = await post(five);
      expect(refused.status()).toBe(400);
      const message = (await refused.json()) as string;
      expect(message).toBe(
        'alert 3 {alertname="D"}: too many alerts: the project has 3 unresolved, the limit is 3; ' +
          'alert 4 {alertname="E"}: too many alerts: the project has 3 unresolved, the limit is 3',
      );
      expect(await names()).toEqual(['A', 'B', 'C']);

      // An alert already firing is updated; a resolve frees a place for the next new one, in the same batch.
      const resolved = new Date(Date.now() - 1000).toISOString();
      const ok = await post([
        { labels: { alertname: 'A' }, annotations: { summary: 'updated' } },
        { labels: { alertname: 'B' }, endsAt: resolved },
        { labels: { alertname: 'D' } },
      ]);
      expect(ok.status(), await ok.text()).toBe(200);
      expect(await names()).toEqual(['A', 'C', 'D']);

      await api.dispose();
      await ada.dispose();
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
