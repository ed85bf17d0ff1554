import type { components } from '../../lib/api-types';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';

export const hooksPath = (orgId: string) => `/v1/organizations/${orgId}/webhooks`;

export type CreatedWebhook = {
  webhook: { id: string; url: string; events: string[]; enabled: boolean };
  secret: string;
};
/** One attempt as the delivery log lists it: the type the OpenAPI document generates. */
export type Attempt = components['schemas']['WebhookDelivery'];

export async function createWebhook(
  ctx: APIRequestContext,
  orgId: string,
  data: { url: string; events: string[]; description?: string },
): Promise<CreatedWebhook> {
  const res = await ctx.post(hooksPath(orgId), { data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as CreatedWebhook;
}

/** Every attempt of an endpoint's delivery log, oldest first: all pages, since a page holds at most 100. */
export async function attemptsOf(ctx: APIRequestContext, orgId: string, webhookId: string): Promise<Attempt[]> {
  const items: Attempt[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await ctx.get(`${hooksPath(orgId)}/${webhookId}/deliveries?limit=100${query}`);
    expect(res.status()).toBe(200);
    const page = (await res.json()) as { items: Attempt[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items.reverse();
}
