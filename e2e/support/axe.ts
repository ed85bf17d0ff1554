import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The widths a keyboard flow runs at: a desktop and a phone. Its checkpoints are checked in both color schemes
 * (`expectAccessibleInBothSchemes`): a scheme changes colors, never what the keyboard does, so the flow runs once per
 * width rather than once per width and scheme.
 */
export const WIDTHS = [1280, 320] as const;

/** Switches the colour scheme and waits out the colour transitions it starts, so axe never reads a colour mid-fade. */
export async function switchScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/**
 * WCAG 2.1 AA on what is on screen, or on the parts `include` selects. Toasts fade in and out; they are checked while
 * present in the flows that make them.
 */
export async function expectAccessible(page: Page, what: string, include: string[] = []): Promise<void> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_21_AA).exclude('[data-sonner-toaster]');
  for (const selector of include) builder.include(selector);
  const results = await builder.analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, what).toEqual([]);
}

/**
 * WCAG 2.1 AA at this point of a flow in the light and then the dark scheme, with a screenshot in each when `screen`
 * names one (`test-results/screens/NAME-light.png`, `…-dark.png`). The page is left in the light scheme.
 */
export async function expectAccessibleInBothSchemes(
  page: Page,
  what: string,
  screen?: { name: string; fullPage?: boolean },
): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await switchScheme(page, colorScheme);
    await expectAccessible(page, `${what}, ${colorScheme}`);
    if (screen)
      await page.screenshot({
        path: `test-results/screens/${screen.name}-${colorScheme}.png`,
        fullPage: screen.fullPage,
      });
  }
  await switchScheme(page, 'light');
}
