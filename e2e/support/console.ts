import { expect, type Page } from '@playwright/test';
import { emailOf, type DemoUser } from '../fixtures';
import { E2E } from './env';

/** Fills and sends the sign-in form of the page it is on (a redirect to it keeps its callbackUrl). */
export async function submitSignIn(page: Page, user: DemoUser | string): Promise<void> {
  await page.getByLabel('Email').fill(emailOf(user));
  await page.getByLabel('Password').fill(E2E.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the real page, as a person would, and waits for the console. */
export async function signInAs(page: Page, user: DemoUser | string): Promise<void> {
  await page.goto('/login');
  await submitSignIn(page, user);
  await expect(page).toHaveURL(/\/orgs\/[0-9a-f-]{36}\//);
}

/** Picks an option of a labelled Radix select. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
