import { expect, test } from '../fixtures';
import { baseURL } from '../support/env';
import { LOGIN_LINK, newConfigDir, runCli, spawnCli, waitForStderr } from '../support/cli';
import { submitSignIn } from '../support/console';

test('svc login is approved in the console: the link keeps its code through sign-in, and the CLI is then logged in', async ({
  page,
}) => {
  const configDir = newConfigDir();
  const cli = spawnCli(['login'], configDir);
  const [, link] = await waitForStderr(cli, LOGIN_LINK);
  const userCode = new URL(link).searchParams.get('user_code')!;

  await page.goto(link);
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await submitSignIn(page, 'cy');
  await expect(page).toHaveURL(`${baseURL}/device?user_code=${userCode}`);
  const review = page.getByRole('region', { name: 'svc CLI wants to access your account' });
  await expect(review).toBeVisible();
  await expect(review.getByText(userCode, { exact: true })).toBeVisible();
  await expect(page.getByText('Signed in as Cy Twombly')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/device-review.png' });

  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: 'Device approved' })).toBeFocused();
  await page.screenshot({ path: 'test-results/screens/device-approved.png' });

  const login = await cli.result;
  expect(login.code, login.stderr).toBe(0);
  const listed = await runCli(['iam', 'api-keys', 'list', '--json'], configDir);
  expect(listed.code, listed.stderr).toBe(0);
  // cy has no apiKeys.list: the login sees exactly cy's own keys.
  const keys = JSON.parse(listed.stdout) as { owner: { name: string } }[];
  expect(keys.every((k) => k.owner.name === 'Cy Twombly')).toBe(true);
  expect((await runCli(['logout'], configDir)).code).toBe(0);
});

test('a typed code can be denied; a malformed one is stopped at the field, an unknown one explained', async ({
  page,
  request,
}) => {
  const res = await request.post('/oauth/device/code', { form: { client_id: 'svc-cli' } });
  const { user_code: userCode, device_code: deviceCode } = (await res.json()) as {
    user_code: string;
    device_code: string;
  };

  await page.goto('/device');
  await submitSignIn(page, 'cy');
  await expect(page).toHaveURL(`${baseURL}/device`);
  const code = page.getByLabel('Code');
  await expect(code).toBeFocused();
  await code.fill('abc');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Enter the 8-letter code your terminal shows')).toBeVisible();
  await expect(code).toHaveAttribute('aria-invalid', 'true');

  await code.fill('BBBB-BBBB');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This code cannot be used' })).toContainText(
    'Run svc login again',
  );
  await page.screenshot({ path: 'test-results/screens/device-unknown.png' });
  await page.getByRole('button', { name: 'Enter another code' }).click();

  await page.getByLabel('Code').fill(userCode.toLowerCase().replace('-', ''));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Device login denied' })).toBeVisible();

  const poll = await request.post('/oauth/token', {
    form: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: 'svc-cli' },
  });
  expect((await poll.json()).error).toBe('access_denied');
});
