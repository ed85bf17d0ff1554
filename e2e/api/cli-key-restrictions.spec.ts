import { bearer, expect, test } from '../fixtures';
import { login, newConfigDir, runCli } from '../support/cli';

// The real `svc` creating restricted keys: --permission, --project and --allow-ip, each repeatable.
test.describe.configure({ mode: 'serial' });
const bobDir = newConfigDir();
const unique = `cli-scope-${Date.now().toString(36)}`;

test('svc iam api-keys create --permission --project --allow-ip makes a key restricted on each axis', async ({
  demo,
}) => {
  const { code: loggedIn } = await login('bob', bobDir);
  expect(loggedIn).toBe(0);
  const created = await runCli(
    [
      'iam',
      'api-keys',
      'create',
      `${unique}-narrow`,
      '--expires-in-days',
      '1',
      '--permission',
      'obs.silences.list',
      '--permission',
      'obs.silences.get',
      '--project',
      'Production',
      '--allow-ip',
      '127.0.0.0/8',
      '--allow-ip',
      '::1',
    ],
    bobDir,
  );
  expect(created.code, created.stderr).toBe(0);
  expect(created.stderr).toContain('Restricted to permissions obs.silences.list, obs.silences.get; 1 project(s)');
  const secret = created.stdout.trim();
  const key = await bearer(secret);
  const self = (await (await key.get('/v1/api-key')).json()) as {
    apiKey: { permissions: string[]; projectIds: string[]; allowedIps: string[] };
  };
  expect(self.apiKey).toMatchObject({
    permissions: ['obs.silences.list', 'obs.silences.get'],
    projectIds: [demo.production],
    allowedIps: ['127.0.0.0/8', '::1/128'],
  });
  expect((await key.get(`/v1/organizations/${demo.acme}/projects/${demo.production}/subscriptions`)).status()).toBe(
    403,
  );
  await key.dispose();

  // What bob does not hold is the server's 400, naming the entry; an unknown project is refused before any request.
  const beyond = await runCli(
    ['iam', 'api-keys', 'create', `${unique}-beyond`, '--permission', 'members.list'],
    bobDir,
  );
  expect(beyond.code).not.toBe(0);
  expect(beyond.stderr).toContain('permissions.0');
  const nowhere = await runCli(['iam', 'api-keys', 'create', `${unique}-nowhere`, '--project', 'Nope'], bobDir);
  expect(nowhere.code).not.toBe(0);
  expect(nowhere.stderr).toContain('No project "Nope"');
  const list = await runCli(['iam', 'api-keys', 'list', '--json'], bobDir);
  const names = (JSON.parse(list.stdout) as { name: string }[]).map((k) => k.name);
  expect(names.filter((n) => n.startsWith(unique))).toEqual([`${unique}-narrow`]);
});
