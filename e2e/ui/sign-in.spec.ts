import { expect, test } from '../fixtures';
import { signInAs } from '../support/console';

test('ada signs in through the real page and sees Acme and its projects', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill('ada@acme.test');
  await page.getByLabel('Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Signing in lands on the organization's overview.
  await expect(page).toHaveURL(/\/orgs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveText(/Acme/);
  await page.getByRole('combobox', { name: 'Project' }).click();
  await expect(page.getByRole('option', { name: 'Production' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Staging' })).toBeVisible();
  await page.getByRole('option', { name: 'Staging' }).click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/subscriptions/);
  await expect(page.getByRole('link', { name: 'Silences' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/console-shell.png' });
});

test('a wrong password is refused with a clear message, and no session is made', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('ada@acme.test');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await page.screenshot({ path: 'test-results/screens/sign-in-error.png' });
  const res = await page.request.get('/v1/organizations');
  expect(res.status()).toBe(401);
});

test('empty fields are stopped at the field before any request', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Enter your email address.')).toBeVisible();
  await expect(page.getByText('Enter your password.')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
});

test('gil (Globex) never sees Acme, even by its URL', async ({ page, demo }) => {
  await signInAs(page, 'gil');
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveText(/Globex/);
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await expect(page.getByRole('option')).toHaveText(['Globex']);
  await page.keyboard.press('Escape');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await expect(page.getByText('Organization not found')).toBeVisible();
  await expect(page.getByText('Acme')).toHaveCount(0);
});

test('sign out ends the session', async ({ page }) => {
  await signInAs(page, 'cy');
  await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await page.request.get('/v1/organizations')).status()).toBe(401);
});
