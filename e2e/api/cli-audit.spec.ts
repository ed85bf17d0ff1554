import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import type { AuditEvent } from '../support/audit';
import { newConfigDir, runCli } from '../support/cli';

// The real `svc audit list`, authenticated by SVC_API_KEY (an API key of the caller).
test('svc audit list filters by action and time, prints a table or JSON; without auditLog.read it fails', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  const dir = newConfigDir();
  const { secret, apiKey } = await createKey(ada, demo.acme, { name: `cli audit ${Date.now()}` });
  const env = { SVC_API_KEY: secret };

  const json = await runCli(['audit', 'list', '--since', '1h', '--action', 'api_key.*', '--json'], dir, env);
  expect(json.code, json.stderr).toBe(0);
  const events = JSON.parse(json.stdout) as AuditEvent[];
  expect(events.every((e) => e.action.startsWith('api_key.'))).toBe(true);
  expect(events.find((e) => e.target.id === apiKey.id)?.action).toBe('api_key.created');
  const hourAgo = Date.now() - 3_700_000;
  expect(events.every((e) => Date.parse(e.occurredAt) >= hourAgo)).toBe(true);

  const text = await runCli(['audit', 'list', '--action', 'api_key.created', '--limit', '5'], dir, env);
  expect(text.code, text.stderr).toBe(0);
  const lines = text.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^TIME\s+ACTION\s+ACTOR\s+TARGET/);
  expect(lines.length).toBeLessThanOrEqual(6);
  expect(lines[1]).toContain('api_key.created');
  expect(text.stdout).not.toContain(secret);

  const bad = await runCli(['audit', 'list', '--since', 'yesterday'], dir, env);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('Use a duration such as 30m');

  const cyKey = await createKey(await as('cy'), demo.acme, { name: `cy cli audit ${Date.now()}` });
  const refused = await runCli(['audit', 'list'], dir, { SVC_API_KEY: cyKey.secret });
  expect(refused.code).not.toBe(0);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toMatch(/permission/i);
});
