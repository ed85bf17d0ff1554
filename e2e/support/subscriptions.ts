import type { APIRequestContext } from '@playwright/test';
import { expect, sessionFor, type Demo } from '../fixtures';

export type Sub = {
  id: string;
  organizationId: string;
  projectId: string;
  queueId: string;
  resourceName: string;
  slug: string;
  state: string;
  batchSize: number;
  maxConcurrency: number;
  target: { kind: string; url?: string; timeoutSeconds?: number; workflowId?: string };
  retryPolicy: { maxAttempts: number; minBackoffSeconds: number; maxBackoffSeconds: number };
  status: {
    health: string;
    lastError: { at: string; class: string; message: string; status: number } | null;
    lastSuccessAt: string | null;
  };
  createdAt: string;
  updatedAt: string;
};

/** The demo subscriptions of PRODUCT.md, told apart by what they are, never by id. */
export type DemoSubs = { https: Sub; failing: Sub; workflow: Sub; staging: Sub; globex: Sub };

export const subsPath = (orgId: string, projectId: string) =>
  `/v1/organizations/${orgId}/projects/${projectId}/subscriptions`;
export const subPath = (sub: Pick<Sub, 'organizationId' | 'projectId' | 'id'>) =>
  `${subsPath(sub.organizationId, sub.projectId)}/${sub.id}`;

export async function listSubs(ctx: APIRequestContext, orgId: string, projectId: string): Promise<Sub[]> {
  const res = await ctx.get(`${subsPath(orgId, projectId)}?limit=100`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Sub[] }).items;
}

export async function readSub(ctx: APIRequestContext, sub: Sub): Promise<Sub> {
  const res = await ctx.get(subPath(sub));
  expect(res.status()).toBe(200);
  return (await res.json()) as Sub;
}

export async function loadDemoSubs(demo: Demo): Promise<DemoSubs> {
  const ada = await sessionFor('ada');
  const gil = await sessionFor('gil');
  const production = await listSubs(ada, demo.acme, demo.production);
  const subs: DemoSubs = {
    https: production.find((s) => s.target.kind === 'https' && s.status.health === 'healthy')!,
    failing: production.find((s) => s.status.health === 'failing')!,
    workflow: production.find((s) => s.target.kind === 'workflow')!,
    staging: (await listSubs(ada, demo.acme, demo.staging))[0],
    globex: (await listSubs(gil, demo.globex, demo.globexProject))[0],
  };
  await ada.dispose();
  await gil.dispose();
  return subs;
}

/** Puts a demo subscription's writable fields back as they were, as ada (OrganizationAdmin). */
export async function restoreSub(original: Sub): Promise<void> {
  const ada = await sessionFor('ada');
  const { kind, ...fields } = original.target;
  const body = {
    batchSize: original.batchSize,
    maxConcurrency: original.maxConcurrency,
    retryPolicy: original.retryPolicy,
    ...(kind === 'https' || kind === 'workflow' ? { target: { kind, ...fields } } : {}),
  };
  const res = await ada.patch(subPath(original), { data: body });
  expect(res.status(), await res.text()).toBe(200);
  await ada.dispose();
}

export type CreatedSub = Sub & { signingSecret: string };

/** Creates a subscription as `ctx` and asserts the 201; the caller deletes it. */
export async function createSub(
  ctx: APIRequestContext,
  orgId: string,
  projectId: string,
  body: Record<string, unknown>,
): Promise<CreatedSub> {
  const res = await ctx.post(subsPath(orgId, projectId), { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CreatedSub;
}

/** The ids of a project's subscriptions: what a refused create must leave as it was. */
export async function subIds(ctx: APIRequestContext, orgId: string, projectId: string): Promise<string[]> {
  return (await listSubs(ctx, orgId, projectId)).map((s) => s.id);
}
