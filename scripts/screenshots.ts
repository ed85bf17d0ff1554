// Screenshots of every console page at 1280 and 390 wide, light and dark, for a person to look at.
// usage: E2E_PORT=… (a running test server, e.g. from `npx playwright test`) npx tsx scripts/screenshots.ts [out-dir]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const base = process.env.BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 3000}`;
const out = process.argv[2] ?? '/tmp/console-screens';
const email = process.env.SCREENSHOT_USER ?? 'ada@acme.test';

async function main() {
  mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ viewport: { width, height: width > 800 ? 800 : 844 }, colorScheme });
      await page.goto(`${base}/login`);
      await page.screenshot({ path: path.join(out, `login-${width}-${colorScheme}.png`) });
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('correct-horse-battery');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(/\/orgs\/[0-9a-f-]{36}$/);
      const org = page.url().replace(/.*\/orgs\//, '');
      const projects = (await (await page.request.get(`${base}/v1/organizations/${org}/projects`)).json()) as {
        items: { id: string; name: string }[];
      };
      const production = projects.items[0].id;
      const pages: Record<string, string> = {
        overview: `/orgs/${org}`,
        'api-keys': `/orgs/${org}/api-keys`,
        members: `/orgs/${org}/members`,
        bots: `/orgs/${org}/bots`,
        settings: `/orgs/${org}/settings`,
        subscriptions: `/orgs/${org}/projects/${production}/subscriptions`,
        silences: `/orgs/${org}/projects/${production}/silences`,
        device: '/device',
        'not-found': `/orgs/${org}/nope`,
        'not-found-root': '/nope',
      };
      for (const [name, url] of Object.entries(pages)) {
        await page.goto(`${base}${url}`);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: path.join(out, `${name}-${width}-${colorScheme}.png`), fullPage: true });
      }
      await page.goto(`${base}${pages.subscriptions}`);
      await page
        .getByRole('button', { name: /^(Edit|View) qsb_/ })
        .first()
        .click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(out, `subscription-dialog-${width}-${colorScheme}.png`) });
      await page.goto(`${base}${pages.silences}`);
      await page.getByRole('tab', { name: /Scheduled/ }).click();
      await page.locator('tr[data-silence-id]').first().getByRole('button').click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(out, `silence-dialog-${width}-${colorScheme}.png`) });
      if (width < 800) {
        await page.goto(`${base}${pages.overview}`);
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(out, `menu-${width}-${colorScheme}.png`) });
      }
      await page.close();
    }
  }
  await browser.close();
  console.log(`screenshots in ${out}`);
}

void main();
