import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, type Demo } from '../fixtures';
import { keyContext, postAlerts, runLabel } from './alerts';

export const alertsPage = (demo: Demo) => `/orgs/${demo.acme}/projects/${demo.production}/alerts`;
export const silencesPage = (demo: Demo) => `/orgs/${demo.acme}/projects/${demo.production}/silences`;

/** Moves focus with Tab, as a keyboard user would, until `target` has it. */
export async function tabTo(page: Page, target: Locator, presses = 60): Promise<void> {
  for (let i = 0; i < presses; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** ada's key (OrganizationAdmin: obs.alerts.create) posting to Production's Alertmanager API. */
export async function alertSender(ada: APIRequestContext, demo: Demo) {
  const { api } = await keyContext(ada, demo);
  const run = runLabel();
  /** Posts alerts labelled with this test's `run`, started now and firing for 30 minutes (no resolve mid-test). */
  const fire = async (alerts: Record<string, string>[]) => {
    const startsAt = new Date().toISOString();
    const endsAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const body = alerts.map((labels) => ({
      labels: { ...labels, run },
      annotations: { summary: `${labels.alertname} on ${labels.instance}` },
      startsAt,
      endsAt,
    }));
    const res = await postAlerts(api, demo, body);
    expect(res.status(), await res.text()).toBe(200);
  };
  return { run, fire, api };
}
