import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import type { ApiKey } from '../../lib/api-keys/schema';
import { fixturesFile } from './env';

export const DAY_MS = 86_400_000;

type OAuthTokens = { bob: string; sam: string; una: string };

/** OAuth access tokens prepare-db issued (as the CLI's device login would) for bob, sam and una. */
export function oauthTokens(): OAuthTokens {
  return (JSON.parse(readFileSync(fixturesFile, 'utf8')) as { oauthAccess: OAuthTokens }).oauthAccess;
}

export async function createKey(ctx: APIRequestContext, orgId: string, body: Record<string, unknown>) {
  const res = await ctx.post(`/v1/organizations/${orgId}/api-keys`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { apiKey: ApiKey; secret: string };
}

/** What "nothing was created or revoked" compares: which keys exist, not when they were last used. */
export async function keyIdentities(ctx: APIRequestContext, orgId: string): Promise<string[]> {
  // A rolled key leaves the list when its grace ends, whatever the test does: compare the others.
  return (await listKeys(ctx, orgId)).filter((k) => !k.stopsAt).map((k) => `${k.id} ${k.name}`);
}

export async function listKeys(ctx: APIRequestContext, orgId: string, query = ''): Promise<ApiKey[]> {
  const res = await ctx.get(`/v1/organizations/${orgId}/api-keys?limit=100${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: ApiKey[] }).items;
}

/** The status a request authenticated by `secret` gets: 200 while the key works, 401 once it does not. */
export async function statusWithKey(ctx: APIRequestContext, secret: string): Promise<number> {
  return (await ctx.get('/v1/organizations', { headers: { Authorization: `Bearer ${secret}` } })).status();
}

export async function userIdOf(admin: APIRequestContext, orgId: string, email: string): Promise<string> {
  const res = await admin.get(`/v1/organizations/${orgId}/members?limit=100`);
  const member = ((await res.json()) as { items: { userId: string; email: string }[] }).items.find(
    (m) => m.email === email,
  );
  if (!member) throw new Error(`${email} is not a member`);
  return member.userId;
}

export async function botIdOf(ctx: APIRequestContext, orgId: string, name: string): Promise<string> {
  const res = await ctx.get(`/v1/organizations/${orgId}/bots?limit=100`);
  const bot = ((await res.json()) as { items: { id: string; name: string }[] }).items.find((b) => b.name === name);
  if (!bot) throw new Error(`no bot ${name}`);
  return bot.id;
}

export async function createScimToken(admin: APIRequestContext, orgId: string): Promise<string> {
  const res = await admin.post(`/v1/organizations/${orgId}/scim-tokens`);
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** A SCIM PATCH setting `active`, in the shape given. */
export function scimPatch(ctx: APIRequestContext, token: string, userId: string, operations: unknown[]) {
  return ctx.patch(`/scim/v2/Users/${userId}`, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' },
    data: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations },
  });
}
