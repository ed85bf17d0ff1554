import type { APIRequestContext, APIResponse } from '@playwright/test';
import { bearer, expect, type Demo, type DemoUser } from '../fixtures';
import { createKey } from './api-keys';
import { unique } from './amtool';

/** The Alertmanager API base of a project, as a path. */
export const amPath = (orgId: string, projectId: string) => `/alertmanager/${orgId}/${projectId}/api/v2`;
export const productionAm = (demo: Demo) => amPath(demo.acme, demo.production);
export const productionAlerts = (demo: Demo) => `/v1/organizations/${demo.acme}/projects/${demo.production}/obs/alerts`;

/** A label value no other test run uses, so a test's `filter` sees only its own alerts. */
export const runLabel = () => unique('run').replace(/[^a-zA-Z0-9]/g, '_');

/** A bearer context for a new key of `ctx`'s caller, optionally restricted to some permissions. */
export async function keyContext(
  ctx: APIRequestContext,
  demo: Demo,
  restrict: { permissions?: string[] } = {},
): Promise<{ api: APIRequestContext; key: string }> {
  const { secret } = await createKey(ctx, demo.acme, { name: unique('alerts'), expiresInDays: 1, ...restrict });
  return { api: await bearer(secret), key: secret };
}

/** Ada's session, a key of hers (`api`) and a run label of its own: where most alert tests start. */
export async function adaWithKey(as: (user: DemoUser) => Promise<APIRequestContext>, demo: Demo) {
  const ada = await as('ada');
  const { api } = await keyContext(ada, demo);
  return { ada, api, run: runLabel() };
}

/** What an alert is in both APIs. */
type AlertFields = {
  fingerprint: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  updatedAt: string;
};

/** An alert as the Alertmanager API answers it. */
export type GettableAlert = AlertFields & {
  generatorURL?: string;
  receivers: { name: string }[];
  status: { state: string; silencedBy: string[]; inhibitedBy: string[] };
};

/** An alert as `/v1` answers it. */
export type Alert = AlertFields & {
  generatorURL: string;
  state: 'firing' | 'silenced' | 'resolved';
  silencedBy: string[];
};

export const postAlerts = (api: APIRequestContext, demo: Demo, body: unknown): Promise<APIResponse> =>
  api.post(`${productionAm(demo)}/alerts`, {
    data: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

/** The alerts of this run as Alertmanager's GET lists them (`extra` adds query parameters). */
export async function amAlerts(api: APIRequestContext, demo: Demo, run: string, extra = ''): Promise<GettableAlert[]> {
  const res = await api.get(`${productionAm(demo)}/alerts?filter=${encodeURIComponent(`run="${run}"`)}${extra}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as GettableAlert[];
}

/** The alerts of this run through /v1 (every page), `query` added. */
export async function v1Alerts(api: APIRequestContext, demo: Demo, run: string, query = ''): Promise<Alert[]> {
  const all: Alert[] = [];
  let cursor: string | null = null;
  do {
    const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await api.get(
      `${productionAlerts(demo)}?filter=${encodeURIComponent(`run="${run}"`)}&limit=100${query}${after}`,
    );
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as { items: Alert[]; nextCursor: string | null };
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
