import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The layouts a keyboard flow is checked in: a desktop and a phone, each in both color schemes. */
export const LAYOUTS = [
  { width: 1280, colorScheme: 'light' },
  { width: 1280, colorScheme: 'dark' },
  { width: 320, colorScheme: 'light' },
  { width: 320, colorScheme: 'dark' },
] as const;

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
