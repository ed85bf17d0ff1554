import { expect, type Locator, type Page, type Route } from '@playwright/test';
import { emailOf, readFixtures, sessionFor, type Demo, type DemoUser } from '../fixtures';
import { E2E } from './env';
import { queueNamed } from './queues';

/** Answers an intercepted request as the API refuses one: 400 `invalid_request` with these issues at their paths. */
export function refuseWithIssues(route: Route, issues: { path: string; message: string }[]): Promise<void> {
  return route.fulfill({
    status: 400,
    contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'invalid_request', message: 'The request is not valid.', issues } }),
  });
}

/** Fills and sends the sign-in form of the page it is on (a redirect to it keeps its callbackUrl). */
export async function submitSignIn(page: Page, user: DemoUser | string): Promise<void> {
  await page.getByLabel('Email').fill(emailOf(user));
  await page.getByLabel('Password').fill(E2E.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs in through the real page, as a person would, and waits for the console. */
export async function signInAs(page: Page, user: DemoUser | string): Promise<void> {
  await page.goto('/login');
  await submitSignIn(page, user);
  // Signing in lands on the organization's overview; wait for it, so the next navigation does not race it.
  await expect(page).toHaveURL(/\/orgs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
}

/**
 * The console's lists come with their page, read on the server. A test that answers the browser's list requests
 * itself (page.route) calls this first: the page's clock then runs a minute ahead, so what came with the page is
 * older than the console's 15 s cache on arrival and the browser reads it again, through the test's route.
 */
export async function readListsInBrowser(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const now = Date.now.bind(Date);
    Date.now = () => now() + 60_000;
  });
}

/** Picks an option of a labelled Radix select. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Every console page a signed-in admin can open, by path. */
export const consolePages = (demo: Demo) => ({
  overview: `/orgs/${demo.acme}`,
  apiKeys: `/orgs/${demo.acme}/api-keys`,
  members: `/orgs/${demo.acme}/members`,
  bots: `/orgs/${demo.acme}/bots`,
  settings: `/orgs/${demo.acme}/settings`,
  queues: `/orgs/${demo.acme}/projects/${demo.production}/queues`,
  subscriptions: `/orgs/${demo.acme}/projects/${demo.production}/subscriptions`,
  silences: `/orgs/${demo.acme}/projects/${demo.production}/silences`,
  alerts: `/orgs/${demo.acme}/projects/${demo.production}/alerts`,
  device: '/device',
  security: '/account/security',
  notFound: `/orgs/${demo.acme}/no-such-page`,
});

/**
 * The pages of one queue and one subscription: the demo's `orders`, and the dead-letter fixture's subscription in
 * Staging (paused, a workflow target, with dead letters, a backlog and a failed delivery).
 */
export async function queuePages(demo: Demo): Promise<{ queue: string; subscription: string }> {
  const ada = await sessionFor('ada');
  const orders = await queueNamed(ada, demo.acme, demo.production, 'orders');
  await ada.dispose();
  const { subscriptionId } = readFixtures().deadLetters;
  return {
    queue: `/orgs/${demo.acme}/projects/${demo.production}/queues/${orders.id}`,
    subscription: `/orgs/${demo.acme}/projects/${demo.staging}/subscriptions/${subscriptionId}`,
  };
}

/** Every console page a signed-in admin can open, the queue and subscription pages among them. */
export const everyConsolePage = async (demo: Demo) => ({ ...consolePages(demo), ...(await queuePages(demo)) });

/**
 * The lines an element's text falls into at its narrowest (min-content) width: every place it may break. The
 * element's own style is put back afterwards.
 */
export async function narrowestLines(element: Locator): Promise<string[]> {
  return element.evaluate((el) => {
    const box = el as HTMLElement;
    const saved = box.getAttribute('style');
    box.style.display = 'inline-block';
    box.style.width = 'min-content';
    const lines: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const last = lines.at(-1);
        if (last && Math.abs(last.top - top) < 2) last.text += text[i];
        else lines.push({ top, text: text[i] });
      }
    }
    if (saved === null) box.removeAttribute('style');
    else box.setAttribute('style', saved);
    return lines.map((line) => line.text);
  });
}

/** An email broken only after its @ or a hyphen, or before a dot: never inside a word. */
export async function expectEmailWrapsWhole(element: Locator, email: string): Promise<void> {
  const lines = await narrowestLines(element);
  expect(lines.join('')).toBe(email);
  expect(lines).toContain(email.slice(email.indexOf('@') + 1, email.indexOf('.', email.indexOf('@'))));
  lines.slice(0, -1).forEach((line, i) => expect(/[@-]$/.test(line) || lines[i + 1].startsWith('.'), line).toBe(true));
}

/** Focuses a control and presses a key on it, as someone on a keyboard would after tabbing there. */
export async function press(page: Page, target: Locator, key = 'Enter'): Promise<void> {
  await target.focus();
  await page.keyboard.press(key);
}

/**
 * Rotate secret on a webhook's or a subscription's page (components/console/rotate-secret-button), by keyboard: it
 * asks first, shows a new `whsec_` secret once, copies it, and focus goes back to the button.
 */
export async function rotateSigningSecret(page: Page, previous: string): Promise<void> {
  const rotate = page.getByRole('button', { name: 'Rotate secret' });
  await press(page, rotate);
  await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }));
  const rotated = page.getByRole('dialog', { name: 'The new signing secret' });
  const next = await rotated.getByLabel('Signing secret').inputValue();
  expect(next).toMatch(/^whsec_/);
  expect(next).not.toBe(previous);
  await press(page, rotated.getByRole('button', { name: 'Copy' }));
  // Copying is asynchronous: Done before it settles would ask "Close anyway?".
  await expect(rotated.getByText('Copied to the clipboard.')).toBeVisible();
  await press(page, rotated.getByRole('button', { name: 'Done' }));
  await expect(rotate).toBeFocused();
}
