import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bearer, expect, test } from '../fixtures';
import { baseURL } from '../support/env';
import { closedUrl, login, newConfigDir, runCli, savedConfig, savedCredentials } from '../support/cli';

// The real `svc` (node cli/bin/svc.mjs), logged in by approving its device code as a demo user.
// Each test runs the CLI several times, a Node process each: over 20 s beside the other suites.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

type ListedKey = {
  id: string;
  name: string;
  prefix: string;
  owner: { type: string; name: string };
  expiresAt: string | null;
  expired: boolean;
};

async function listKeys(configDir: string, env = {}): Promise<ListedKey[]> {
  const { code, stdout, stderr } = await runCli(['iam', 'api-keys', 'list', '--json'], configDir, env);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as ListedKey[];
}

const bobDir = newConfigDir();
const adaDir = newConfigDir();
const unique = `cli-${Date.now().toString(36)}`;

test('svc login completes when bob approves the code, and saves credentials readable only by him', async () => {
  const { stderr } = await login('bob', bobDir);
  expect(stderr).toContain('Organizations: Acme.');
  expect(statSync(path.join(bobDir, 'credentials.json')).mode & 0o777).toBe(0o600);
  expect(statSync(bobDir).mode & 0o777).toBe(0o700);
  const { accessToken } = savedCredentials(bobDir);
  expect((await (await bearer(accessToken)).get('/v1/organizations')).status()).toBe(200);
});

test('create prints the key alone on stdout; without --expires-in-days it never expires, with it the expiry is listed', async () => {
  const forever = await runCli(['iam', 'api-keys', 'create', `${unique}-forever`], bobDir);
  expect(forever.code, forever.stderr).toBe(0);
  expect(forever.stdout).toMatch(/^svc_[0-9A-Za-z]{40}\n$/);
  expect(forever.stderr).toContain('never expires');
  expect(forever.stderr).not.toContain(forever.stdout.trim());

  const monthly = await runCli(
    ['iam', 'api-keys', 'create', `${unique}-30d`, '--expires-in-days', '30', '--org', 'Acme'],
    bobDir,
  );
  expect(monthly.code, monthly.stderr).toBe(0);
  expect(monthly.stdout).toMatch(/^svc_[0-9A-Za-z]{40}\n$/);

  // The printed key is a working credential of bob's.
  const asKey = await bearer(monthly.stdout.trim());
  expect((await asKey.get('/v1/organizations')).status()).toBe(200);
  await asKey.dispose();

  const keys = await listKeys(bobDir);
  const [newest, older] = keys;
  expect([newest.name, older.name]).toEqual([`${unique}-30d`, `${unique}-forever`]);
  expect(older.expiresAt).toBeNull();
  const days = (Date.parse(newest.expiresAt!) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
  expect(newest.prefix).toBe(monthly.stdout.slice(0, 8));

  const table = await runCli(['iam', 'api-keys', 'list'], bobDir);
  expect(table.code, table.stderr).toBe(0);
  const lines = table.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^NAME\s+PREFIX\s+OWNER\s+CREATED\s+EXPIRES\s+LAST USED\s+ID$/);
  const row = (name: string) => lines.find((l) => l.startsWith(`${name} `))!;
  expect(row(`${unique}-30d`)).toContain(`${newest.prefix}…`);
  expect(row(`${unique}-30d`)).toContain(`${newest.expiresAt!.slice(0, 10)} ${newest.expiresAt!.slice(11, 16)} UTC`);
  expect(row(`${unique}-30d`)).toContain('Bob');
  expect(row(`${unique}-forever`)).toMatch(/UTC\s+never\s+never\s+[0-9a-f-]{36}$/);
});

test('delete resolves an id, an exact name and a prefix', async () => {
  const created: Record<string, string> = {};
  for (const name of ['by-id', 'by-name', 'by-prefix']) {
    const { code, stdout, stderr } = await runCli(['iam', 'api-keys', 'create', `${unique}-${name}`], bobDir);
    expect(code, stderr).toBe(0);
    created[name] = stdout.trim();
  }
  // A bystander whose name starts with an exact name deleted below: delete by name must leave it.
  expect((await runCli(['iam', 'api-keys', 'create', `${unique}-by-name-kept`], bobDir)).code).toBe(0);
  const find = (keys: ListedKey[], name: string) => keys.find((k) => k.name === `${unique}-${name}`);
  // Only this file's keys: other files' keys may leave the list meanwhile (housekeeping revokes rolled keys
  // when their grace ends), and this file's tests run one at a time.
  const ours = (keys: ListedKey[]) =>
    keys
      .filter((k) => k.name.startsWith(unique))
      .map((k) => k.id)
      .sort();
  const before = await listKeys(bobDir);

  const byId = await runCli(['iam', 'api-keys', 'delete', find(before, 'by-id')!.id], bobDir);
  expect(byId.code, byId.stderr).toBe(0);
  expect(byId.stderr).toContain(`Deleted API key "${unique}-by-id"`);
  const byName = await runCli(['iam', 'api-keys', 'delete', `${unique}-by-name`], bobDir);
  expect(byName.code, byName.stderr).toBe(0);
  const byPrefix = await runCli(['iam', 'api-keys', 'delete', `${created['by-prefix'].slice(0, 8)}…`], bobDir);
  expect(byPrefix.code, byPrefix.stderr).toBe(0);
  expect(byPrefix.stderr).toContain(`Deleted API key "${unique}-by-prefix"`);

  const after = await listKeys(bobDir);
  for (const name of ['by-id', 'by-name', 'by-prefix']) expect(find(after, name)).toBeUndefined();
  const deleted = new Set(['by-id', 'by-name', 'by-prefix'].map((name) => find(before, name)!.id));
  expect(ours(after)).toEqual(ours(before).filter((id) => !deleted.has(id)));
  expect(find(after, 'by-name-kept')).toBeDefined();
  // Deleted means revoked: the keys no longer authenticate.
  for (const secret of Object.values(created))
    expect((await (await bearer(secret)).get('/v1/organizations')).status()).toBe(401);
});

test('an ambiguous name lists the matches, deletes nothing and exits non-zero; an unknown one says so', async () => {
  for (let i = 0; i < 2; i++)
    expect((await runCli(['iam', 'api-keys', 'create', `${unique}-twin`], bobDir)).code).toBe(0);
  const before = await listKeys(bobDir);
  const twins = before.filter((k) => k.name === `${unique}-twin`);
  expect(twins).toHaveLength(2);

  const ambiguous = await runCli(['iam', 'api-keys', 'delete', `${unique}-twin`], bobDir);
  expect(ambiguous.code).not.toBe(0);
  expect(ambiguous.stdout).toBe('');
  expect(ambiguous.stderr).toContain('matches 2 API keys by name; nothing was deleted');
  for (const twin of twins) expect(ambiguous.stderr).toContain(twin.id);
  expect(await listKeys(bobDir)).toEqual(before);

  const unknown = await runCli(['iam', 'api-keys', 'delete', 'no-such-key'], bobDir);
  expect(unknown.code).not.toBe(0);
  expect(unknown.stderr).toContain('No API key in Acme has the id, name or prefix "no-such-key"');
  expect(await listKeys(bobDir)).toEqual(before);
});

test('SVC_API_KEY lists and deletes, but create fails with the server’s 403 message', async ({ fixtures }) => {
  const asBot = { SVC_API_KEY: fixtures.keys.deployBot };
  const empty = newConfigDir();
  const keys = await listKeys(empty, asBot);
  expect(keys.map((k) => k.name)).toContain('e2e deploy-bot');
  expect(keys.every((k) => k.owner.type === 'bot')).toBe(true);

  const create = await runCli(['iam', 'api-keys', 'create', `${unique}-from-key`], empty, asBot);
  expect(create.code).not.toBe(0);
  expect(create.stdout).toBe('');
  expect(create.stderr).toContain('error: API keys cannot create API keys.');

  // ada makes a second key for the bot (--bot by name); the bot's own key then deletes it by name.
  await login('ada', adaDir);
  // Other specs make organizations as ada: she names Acme, as a person in several would.
  expect((await runCli(['orgs', 'use', 'Acme'], adaDir)).code).toBe(0);
  const forBot = await runCli(
    ['iam', 'api-keys', 'create', `${unique}-bot-key`, '--bot', 'deploy-bot', '--expires-in-days', '7'],
    adaDir,
  );
  expect(forBot.code, forBot.stderr).toBe(0);
  expect(forBot.stderr).toContain('for deploy-bot (bot)');
  const deleted = await runCli(['iam', 'api-keys', 'delete', `${unique}-bot-key`], empty, asBot);
  expect(deleted.code, deleted.stderr).toBe(0);
  expect((await listKeys(empty, asBot)).map((k) => k.name)).not.toContain(`${unique}-bot-key`);
  expect((await listKeys(adaDir)).map((k) => k.name)).not.toContain(`${unique}-bot-key`);
});

test('an expired access token is refreshed transparently, rotating both tokens', async () => {
  const before = savedCredentials(bobDir);
  const file = path.join(bobDir, 'credentials.json');
  const config = savedConfig(bobDir);
  config.servers[baseURL].credentials!.expiresAt = new Date(Date.now() - 1000).toISOString();
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });

  expect(await listKeys(bobDir)).not.toHaveLength(0);
  const after = savedCredentials(bobDir);
  expect(after.accessToken).not.toBe(before.accessToken);
  expect(after.refreshToken).not.toBe(before.refreshToken);
  expect((await (await bearer(before.accessToken)).get('/v1/organizations')).status()).toBe(401);
  expect(statSync(file).mode & 0o777).toBe(0o600);
});

test('three svc processes refreshing an expired token at once all succeed, and the login survives', async () => {
  const file = path.join(bobDir, 'credentials.json');
  const config = savedConfig(bobDir);
  config.servers[baseURL].credentials!.expiresAt = new Date(Date.now() - 1000).toISOString();
  writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  // Without the refresh lock, the second and third would spend a rotated refresh token: reuse, login revoked.
  const runs = await Promise.all([0, 1, 2].map(() => runCli(['iam', 'api-keys', 'list', '--json'], bobDir)));
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  const { accessToken } = savedCredentials(bobDir);
  expect((await (await bearer(accessToken)).get('/v1/organizations')).status()).toBe(200);
  expect((await listKeys(bobDir)).length).toBeGreaterThan(0);
});

test('--org picks an organization by name; one the caller is not in is refused with the list of theirs', async ({
  demo,
}) => {
  const listed = await runCli(['iam', 'api-keys', 'list', '--org', demo.acme, '--json'], bobDir);
  expect(listed.code, listed.stderr).toBe(0);
  const refused = await runCli(['iam', 'api-keys', 'list', '--org', 'Globex'], bobDir);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('You are not in an organization "Globex". Your organizations:');
  expect(refused.stderr).toContain(`Acme  (${demo.acme})`);
});

test('svc logout revokes the token at the server (it then answers 401) and deletes the local credentials', async () => {
  const { accessToken, refreshToken } = savedCredentials(bobDir);
  const token = await bearer(accessToken);
  expect((await token.get('/v1/organizations')).status()).toBe(200);

  const out = await runCli(['logout'], bobDir);
  expect(out.code, out.stderr).toBe(0);
  expect(out.stderr).toContain('Logged out');
  expect((await token.get('/v1/organizations')).status()).toBe(401);
  expect(() => savedCredentials(bobDir)).toThrow();
  const refresh = await token.post('/oauth/token', {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'svc-cli' },
  });
  expect((await refresh.json()).error).toBe('invalid_grant');

  const after = await runCli(['iam', 'api-keys', 'list'], bobDir);
  expect(after.code).not.toBe(0);
  expect(after.stderr).toContain('Not logged in');
  await token.dispose();
});

for (const days of ['0', '366', 'abc', '1.5']) {
  test(`--expires-in-days ${days} is refused before any request`, async () => {
    // The server is a closed port: a request would fail with "Could not reach", not the validation message.
    const out = await runCli(['iam', 'api-keys', 'create', 'never-sent', '--expires-in-days', days], adaDir, {
      ORGS_URL: await closedUrl(),
    });
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(`argument '${days}' is invalid. Must be a whole number of days from 1 to 365`);
    expect(out.stderr).not.toContain('Could not reach');
  });
}

test('a server that cannot be reached is named, with a non-zero exit', async ({ fixtures }) => {
  const closed = await closedUrl();
  const list = await runCli(['iam', 'api-keys', 'list'], newConfigDir(), {
    ORGS_URL: closed,
    SVC_API_KEY: fixtures.keys.deployBot,
  });
  expect(list.code).not.toBe(0);
  expect(list.stderr).toBe(
    `error: Could not reach ${closed}: connect ECONNREFUSED ${closed.slice('http://'.length)}\n`,
  );
  const loginOut = await runCli(['login'], newConfigDir(), { ORGS_URL: closed });
  expect(loginOut.code).not.toBe(0);
  expect(loginOut.stderr).toContain(`Could not reach ${closed}`);
});

test('--help works on every command', async () => {
  for (const args of [
    [],
    ['login'],
    ['logout'],
    ['iam'],
    ['iam', 'api-keys'],
    ['iam', 'api-keys', 'create'],
    ['iam', 'api-keys', 'list'],
    ['iam', 'api-keys', 'delete'],
  ]) {
    const out = await runCli([...args, '--help'], newConfigDir(), { ORGS_URL: 'http://127.0.0.1:9' });
    expect(out.code, args.join(' ')).toBe(0);
    expect(out.stdout).toContain(`Usage: svc${args.length ? ` ${args.join(' ')}` : ''}`);
  }
});

test.afterAll(async () => {
  // ada's login from this file is revoked too, so no token outlives the run.
  await runCli(['logout'], adaDir);
});
