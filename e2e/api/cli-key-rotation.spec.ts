import { bearer, expect, test } from '../fixtures';
import { createKey, statusWithKey } from '../support/api-keys';
import { login, newConfigDir, runCli } from '../support/cli';

// `svc iam api-keys roll` and `list --usage` / `--expiring-soon`, as bob from a fresh machine.
test.describe.configure({ mode: 'serial' });

const dir = newConfigDir();
const unique = `cli-roll-${Date.now().toString(36)}`;

test.beforeAll(async () => {
  await login('bob', dir);
});

test('roll prints only the new key on stdout; with --grace the old one keeps working and is listed as rolled', async ({
  as,
  demo,
  request,
}) => {
  const old = await createKey(await as('bob'), demo.acme, { name: unique, expiresInDays: 3 });
  const rolled = await runCli(['iam', 'api-keys', 'roll', unique, '--grace', '1h'], dir);
  expect(rolled.code, rolled.stderr).toBe(0);
  const secret = rolled.stdout.trim();
  expect(rolled.stdout).toMatch(/^svc_[0-9A-Za-z]{40}\n$/);
  expect(rolled.stderr).toContain(`Rolled API key "${unique}" (${old.apiKey.prefix}…)`);
  expect(rolled.stderr).toMatch(/The old key works until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(await statusWithKey(request, secret)).toBe(200);
  expect(await statusWithKey(request, old.secret)).toBe(200);

  const table = await runCli(['iam', 'api-keys', 'list', '--expiring-soon'], dir);
  expect(table.code, table.stderr).toBe(0);
  const rows = table.stdout.split('\n').filter((l) => l.startsWith(unique));
  expect(rows).toHaveLength(2);
  expect(rows.some((r) => r.includes(`${old.apiKey.prefix}…`) && r.includes('(rolled)'))).toBe(true);
  expect(rows.some((r) => r.includes(`${secret.slice(0, 8)}…`) && r.includes('(expiring soon)'))).toBe(true);

  // Now the name is ambiguous: nothing is rolled, the matches are listed.
  const ambiguous = await runCli(['iam', 'api-keys', 'roll', unique], dir);
  expect(ambiguous.code).toBe(1);
  expect(ambiguous.stderr).toContain('matches 2 API keys by name; nothing was rolled');
  expect(await statusWithKey(request, secret)).toBe(200);

  // Rolling the new key by prefix with the default grace (0) ends it at once.
  const again = await runCli(['iam', 'api-keys', 'roll', `${secret.slice(0, 8)}…`], dir);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toContain('The old key stopped working now.');
  expect(await statusWithKey(request, secret)).toBe(401);
  expect(await statusWithKey(request, again.stdout.trim())).toBe(200);
});

test('roll refuses a grace over 7 days before any request; an API key cannot roll', async ({ as, demo }) => {
  const bad = await runCli(['iam', 'api-keys', 'roll', unique, '--grace', '8d'], dir);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('at most 7 days');
  const key = await createKey(await as('bob'), demo.acme, { name: `${unique}-by-key` });
  const byKey = await runCli(['iam', 'api-keys', 'roll', `${unique}-by-key`], newConfigDir(), {
    SVC_API_KEY: key.secret,
  });
  expect(byKey.code).toBe(1);
  expect(byKey.stderr).toContain('error: API keys cannot roll API keys');
});

test('list --usage adds the requests of the last 7 and 30 days', async ({ as, demo }) => {
  const key = await createKey(await as('bob'), demo.acme, { name: `${unique}-usage` });
  const asKey = await bearer(key.secret);
  for (let i = 0; i < 3; i++) expect((await asKey.get('/v1/organizations')).status()).toBe(200);
  await asKey.dispose();
  const row = async () => {
    const { stdout } = await runCli(['iam', 'api-keys', 'list', '--usage'], dir);
    expect(stdout.split('\n')[0]).toMatch(
      /^NAME\s+PREFIX\s+OWNER\s+CREATED\s+EXPIRES\s+LAST USED\s+REQUESTS 7D\s+REQUESTS 30D\s+ID$/,
    );
    return stdout.split('\n').find((l) => l.startsWith(`${unique}-usage `)) ?? '';
  };
  // The counts are written every LAST_USED_FLUSH_MS, and each CLI run takes seconds on a loaded machine.
  await expect.poll(async () => (await row()).split(/\s{2,}/).slice(-3, -1), { timeout: 30_000 }).toEqual(['3', '3']);
  const json = await runCli(['iam', 'api-keys', 'list', '--usage', '--json'], dir);
  const listed = (JSON.parse(json.stdout) as { id: string; usage: { days: unknown[] } }[]).find(
    (k) => k.id === key.apiKey.id,
  );
  expect(listed?.usage.days).toHaveLength(30);
});
