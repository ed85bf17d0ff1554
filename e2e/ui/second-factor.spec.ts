import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expectAccessible } from '../support/axe';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';

// WebAuthn's RP ID is the host of NEXTAUTH_URL and browsers refuse an IP address as one, so these tests run on
// servers of their own at http://localhost:<port>. `sudo` has a 3-second window, so a session goes stale quickly.
const PORTS = { main: E2E.port + 70, sudo: E2E.port + 71 };
const url = (server: keyof typeof PORTS) => `http://localhost:${PORTS[server]}`;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 320, height: 640 },
];
const SUDO_WINDOW_SECONDS = 3;

type Person = { orgId: string; userId: string; email: string };

/** A person of this file's own, in an organization of their own, written before (PGlite) or beside (PostgreSQL) the server. */
function seedPerson(dataDir: string, label: string, joinOrgId?: string): Person {
  const email = `${label}-${randomUUID().slice(0, 8)}@second-factor-ui.test`;
  const out = execFileSync(
    'npx',
    [
      'tsx',
      'e2e/support/console-user-seed.ts',
      email,
      `${label} Tester`,
      `Second factor ${label}`,
      ...(joinOrgId ? [joinOrgId] : []),
    ],
    { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  return JSON.parse(out) as Person;
}

/** The code an authenticator app would show for `secret`, `offset` steps of 30 s from now. */
function totpCode(secret: string, offset = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

/** Chromium's virtual authenticator, as a platform authenticator with a discoverable credential store. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * Focus then Enter: what a keyboard user does once Tab has reached the control (the first of that name: an empty
 * key list offers a second "Create API key" under the header's).
 */
async function press(page: Page, name: string | RegExp, role: 'button' | 'link' = 'button') {
  const control = page.getByRole(role, { name, exact: typeof name === 'string' }).first();
  await control.focus();
  await page.keyboard.press('Enter');
}

/** The password step by keyboard: the email field has focus when the page opens. */
async function typeCredentials(page: Page, base: string, email: string) {
  await page.goto(`${base}/login`);
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(E2E.password);
  await page.keyboard.press('Enter');
}

async function expectConsole(page: Page) {
  await expect(page).toHaveURL(/\/orgs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
}

/** The user's links sit in the sidebar from 1024 px up, in the menu below that. */
async function openUserLinks(page: Page) {
  if ((page.viewportSize()?.width ?? 1280) < 1024) await press(page, /Menu/);
}

async function signOut(page: Page) {
  await openUserLinks(page);
  await press(page, 'Sign out');
  await expect(page).toHaveURL(/\/login/);
}

test.describe('second factor in the console', () => {
  test.describe.configure({ mode: 'serial' });
  let servers: Spawned[] = [];
  const people: Record<string, Person> = {};
  // The recovery codes each enrolment showed, by person: the policy test signs in with one.
  const recoveryCodes: Record<string, string[]> = {};

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const dirs = { main: path.join(E2E.stateDir, 'data-2fa-ui'), sudo: path.join(E2E.stateDir, 'data-2fa-sudo') };
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
    people.wide = seedPerson(dirs.main, 'wide');
    people.narrow = seedPerson(dirs.main, 'narrow');
    // A member of the wide person's organization with no factor, for the policy.
    people.member = seedPerson(dirs.main, 'member', people.wide.orgId);
    people.stale = seedPerson(dirs.sudo, 'stale');
    const env = (server: keyof typeof PORTS, extra: Record<string, string> = {}) => ({
      DATA_DIR: dirs[server],
      NEXTAUTH_URL: url(server),
      SIGNIN_RATE_LIMIT: '1000',
      AUTH_FAILURE_RATE_LIMIT: '1000000',
      RATE_LIMIT_NAMESPACE: `2fa-ui-${server}-${Date.now()}-`,
      ...extra,
    });
    servers = await Promise.all([
      spawnServer(PORTS.main, env('main')),
      spawnServer(PORTS.sudo, env('sudo', { SUDO_WINDOW_SECONDS: String(SUDO_WINDOW_SECONDS) })),
    ]);
  });
  test.afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  for (const viewport of VIEWPORTS) {
    const who = viewport.width >= 1024 ? 'wide' : 'narrow';
    test(`at ${viewport.width} px: enrol TOTP and a passkey, then sign in with each`, async ({ page }) => {
      test.setTimeout(120_000);
      const base = url('main');
      const person = people[who];
      await page.setViewportSize(viewport);
      await virtualAuthenticator(page);

      await typeCredentials(page, base, person.email);
      await expectConsole(page);
      await openUserLinks(page);
      await press(page, 'Security', 'link');
      await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();

      // TOTP: the secret in text is what a person types into an app; the code it gives turns TOTP on.
      await press(page, 'Set up an authenticator app');
      const enrol = page.getByRole('dialog', { name: 'Set up an authenticator app' });
      await expect(enrol.getByRole('img', { name: 'QR code of the authenticator key' })).toBeVisible();
      const secret = (await enrol.getByTestId('totp-secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expect(enrol.getByLabel('Code from the app')).toBeFocused();
      await page.screenshot({ path: `test-results/screens/second-factor-totp-${viewport.width}.png` });
      await expectAccessible(page, 'the set-up dialog');
      await page.keyboard.type(totpCode(secret));
      await page.keyboard.press('Enter');
      const codesDialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
      await expect(codesDialog.getByRole('listitem')).toHaveCount(10);
      await expect(codesDialog.getByRole('listitem').first()).toHaveText(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      recoveryCodes[who] = await codesDialog.getByRole('listitem').allTextContents();
      await press(page, 'I have saved them');
      await expect(codesDialog).toBeHidden();
      await expect(page.getByText('The authenticator app is on: sign-in now asks for its code.')).toBeVisible();
      // The set-up button is gone with TOTP on: focus lands on its section, not on the page's start.
      await expect(page.getByRole('heading', { name: 'Authenticator app' })).toBeFocused();
      await expect(page.getByText('9 of 10 unused')).toHaveCount(0);
      await expect(page.getByText('10 of 10 unused.', { exact: false })).toBeVisible();

      // A passkey, named, made by the virtual authenticator; focus goes back to the button that opened the dialog.
      await press(page, 'Add a passkey');
      await expect(page.getByLabel('Name')).toBeFocused();
      await page.keyboard.type('Virtual key');
      await page.keyboard.press('Enter');
      await expect(page.getByText('Added the passkey “Virtual key”.')).toBeVisible();
      await expect(page.getByRole('rowheader', { name: 'Virtual key' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeFocused();
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await page.screenshot({
        path: `test-results/screens/second-factor-security-${viewport.width}.png`,
        fullPage: true,
      });
      await expectAccessible(page, 'the Security page');

      // Password, then the second step: a wrong code is refused at the field, the next right one signs in.
      await press(page, /Back to the console/, 'link');
      await expectConsole(page);
      await signOut(page);
      await typeCredentials(page, base, person.email);
      await expect(page.getByRole('heading', { name: 'Second step' })).toBeVisible();
      const codeField = page.getByLabel('Authentication code');
      await expect(codeField).toBeFocused();
      // A code is accepted once: the enrolment used this step's, so the next step's (within ±1) signs in.
      const good = totpCode(secret, 1);
      await page.keyboard.type(good === '123456' ? '654321' : '123456');
      await page.keyboard.press('Enter');
      await expect(page.getByText(/That code did not work/)).toBeVisible();
      await expect(codeField).toHaveAttribute('aria-invalid', 'true');
      await page.screenshot({ path: `test-results/screens/second-factor-sign-in-${viewport.width}.png` });
      await expectAccessible(page, 'the second step');
      await codeField.fill('');
      await page.keyboard.type(good);
      await page.keyboard.press('Enter');
      await expectConsole(page);

      // The passkey as the second step, then the passkey alone.
      await signOut(page);
      await typeCredentials(page, base, person.email);
      await expect(page.getByRole('heading', { name: 'Second step' })).toBeVisible();
      await press(page, 'Use a passkey');
      await expectConsole(page);
      await signOut(page);
      await press(page, 'Sign in with a passkey');
      await expectConsole(page);

      // The passkey shows its use; removing it asks first, and is announced.
      await page.goto(`${base}/account/security`);
      const row = page.getByRole('row', { name: /Virtual key/ });
      await expect(row.getByRole('cell').nth(1)).not.toHaveText('Never');
      await press(page, 'Remove Virtual key');
      await press(page, 'Remove');
      await expect(page.getByText('Removed the passkey “Virtual key”.')).toBeVisible();
      await expect(page.getByText('No passkeys yet')).toBeVisible();
    });
  }

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px: a stale session confirms with its password and the key is created as typed`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const base = url('sudo');
      const person = people.stale;
      await page.setViewportSize(viewport);
      await typeCredentials(page, base, person.email);
      await expectConsole(page);
      // The sign-in opened the window; let it close.
      await page.waitForTimeout((SUDO_WINDOW_SECONDS + 1) * 1000);
      await page.goto(`${base}/orgs/${person.orgId}/api-keys`);
      await press(page, 'Create API key');
      const name = `deploys at ${viewport.width}`;
      await expect(page.getByLabel('Name')).toBeFocused();
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');

      const sudo = page.getByRole('dialog', { name: 'Confirm it is you' });
      await expect(sudo).toBeVisible();
      await expect(sudo.getByLabel('Password')).toBeFocused();
      await page.screenshot({ path: `test-results/screens/second-factor-sudo-${viewport.width}.png` });
      await expectAccessible(page, 'the sudo dialog');
      // A wrong password keeps the dialog open with the reason at the field.
      await page.keyboard.type('not-the-password');
      await page.keyboard.press('Enter');
      await expect(sudo.getByText('That did not check out; nothing changed.')).toBeVisible();
      await sudo.getByLabel('Password').fill('');
      await page.keyboard.type(E2E.password);
      await page.keyboard.press('Enter');
      await expect(sudo).toBeHidden();
      // The form was sent again as typed: the key exists under its name, and its secret is shown once.
      await expect(page.getByText(`Created “${name}”. Copy the key now.`)).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Your new API key' }).getByLabel('API key')).toHaveValue(/.{20,}/);
    });
  }

  test('an admin requires a second factor; a member without one is taken to enrol', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const base = url('main');
    const admin = people.wide;
    // A recovery code is a second step too (the authenticator's codes of this minute were used above).
    await typeCredentials(page, base, admin.email);
    await expect(page.getByLabel('Authentication code')).toBeFocused();
    await page.keyboard.type(recoveryCodes.wide[0]);
    await page.keyboard.press('Enter');
    await expectConsole(page);
    await page.goto(`${base}/orgs/${admin.orgId}/members`);
    const adminRow = page.getByRole('row', { name: /wide Tester/ });
    await expect(adminRow.getByText('On', { exact: true })).toBeVisible();
    await expect(page.getByRole('row', { name: /member Tester/ }).getByText('None', { exact: true })).toBeVisible();
    await page.goto(`${base}/orgs/${admin.orgId}/settings`);
    const policy = page.getByRole('switch', { name: 'Require a second factor' });
    await expect(policy).not.toBeChecked();
    await expect(policy).toBeEnabled(); // it waits, disabled, in its place until the permissions arrive
    await policy.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText('Members now need a second factor to use this organization.')).toBeVisible();
    await expect(policy).toBeChecked();

    const memberContext = await browser.newContext();
    const memberPage = await memberContext.newPage();
    await typeCredentials(memberPage, base, people.member.email);
    await expect(memberPage).toHaveURL(/\/account\/security\?required=1$/);
    await expect(memberPage.getByText('Your organization requires a second factor.', { exact: false })).toBeVisible();
    await expect(memberPage.getByRole('button', { name: 'Set up an authenticator app' })).toBeVisible();
    await memberContext.close();
  });
});
