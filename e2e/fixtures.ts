import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  test as base,
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type APIResponse,
} from '@playwright/test';
import { encode } from 'next-auth/jwt';
import type { ErrorBody } from '../lib/errors';
import { baseURL, E2E, fixturesFile } from './support/env';
import type { SecondFactorFixtures } from './support/second-factor-seed';
import type { DeadLetterFixture } from './support/subscriptions-seed';

export type DemoUser = 'ada' | 'bob' | 'cy' | 'gil';
export const EMAILS: Record<DemoUser, string> = {
  ada: 'ada@acme.test',
  bob: 'bob@acme.test',
  cy: 'cy@acme.test',
  gil: 'gil@globex.test',
};

/** A demo user's email; anything else is taken to be an email already. */
export const emailOf = (user: DemoUser | string): string => (user in EMAILS ? EMAILS[user as DemoUser] : user);

export type Fixtures = {
  suspendedUserId: string;
  keys: { bobExpired: string; bobRevoked: string; suspendedUser: string; deployBot: string };
  secondFactor: SecondFactorFixtures;
  deadLetters: DeadLetterFixture;
};

export type Demo = {
  acme: string;
  globex: string;
  production: string;
  staging: string;
  globexProject: string;
  users: Record<DemoUser, string>;
  deployBot: string;
};

/** Signs in through next-auth's real credentials endpoint; the context then carries the session cookie. */
export async function signIn(ctx: APIRequestContext, email: string, password = E2E.password): Promise<APIResponse> {
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  return ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password, json: 'true' },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
}

/** A signed-in API context for a demo user; writes carry the app's own Origin, as a browser would send. */
export async function sessionFor(user: DemoUser | string, url = baseURL): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { Origin: url } });
  const res = await signIn(ctx, emailOf(user));
  expect([200, 302]).toContain(res.status());
  return ctx;
}

/** An API context that authenticates with `Authorization: Bearer <token>` and sends no cookie or Origin. */
export async function bearer(token: string, url = baseURL): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
}

/** A session cookie minted with the server's secret, to show what the server does with a valid JWT for a given user. */
export async function mintedSessionCookie(userId: string, sessionVersion = 1): Promise<string> {
  const token = await encode({
    token: { sub: userId, sv: sessionVersion, sid: randomUUID(), name: 'minted' },
    secret: E2E.secret,
  });
  return `next-auth.session-token=${token}`;
}

export function readFixtures(): Fixtures {
  return JSON.parse(readFileSync(fixturesFile, 'utf8')) as Fixtures;
}

/** The fixtures of the small-limits server (its own database). */
export function readFixturesFor(server: 'limited'): Fixtures {
  return JSON.parse(readFileSync(path.join(E2E.stateDir, `fixtures-${server}.json`), 'utf8')) as Fixtures;
}

/** Asserts the exact error envelope of the spec: status, code, message, issues and the request id header. */
export async function expectError(
  res: APIResponse,
  status: number,
  code: string,
  issuePaths?: string[],
): Promise<ErrorBody['error']> {
  const text = await res.text();
  expect(res.status(), `${res.url()} answered ${res.status()}: ${text}`).toBe(status);
  expect(res.headers()['x-request-id']).toMatch(/^req_[0-9a-f]+$/);
  expect(res.headers()['content-type']).toContain('application/json');
  const body = JSON.parse(text) as ErrorBody;
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(body.error.code).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(body.error.code.length).toBeLessThanOrEqual(64);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.message.length).toBeLessThanOrEqual(1024);
  if (issuePaths) {
    expect(body.error.issues?.map((i) => i.path).sort()).toEqual([...issuePaths].sort());
    for (const issue of body.error.issues ?? []) expect(issue.message.length).toBeGreaterThan(0);
  }
  return body.error;
}

let demoCache: Demo | undefined;

/** The demo's Acme and its Production project, on a server of a test's own seeded with the demo (ada's session). */
export async function acmeProduction(ada: APIRequestContext): Promise<{ acme: string; production: string }> {
  const list = async (path: string) =>
    ((await (await ada.get(path)).json()) as { items: { id: string; name: string }[] }).items;
  const acme = (await list('/v1/organizations')).find((o) => o.name === 'Acme')!.id;
  const production = (await list(`/v1/organizations/${acme}/projects`)).find((p) => p.name === 'Production')!.id;
  return { acme, production };
}

/** Ids of the demo data, looked up through the API (never hard-coded). */
export async function loadDemo(): Promise<Demo> {
  if (demoCache) return demoCache;
  const ada = await sessionFor('ada');
  const gil = await sessionFor('gil');
  const list = async <T>(ctx: APIRequestContext, path: string) =>
    ((await (await ctx.get(path)).json()) as { items: T[] }).items;
  const acme = (await list<{ id: string; name: string }>(ada, '/v1/organizations')).find((o) => o.name === 'Acme')!.id;
  const globex = (await list<{ id: string; name: string }>(gil, '/v1/organizations')).find(
    (o) => o.name === 'Globex',
  )!.id;
  const acmeProjects = await list<{ id: string; name: string }>(ada, `/v1/organizations/${acme}/projects`);
  const globexProjects = await list<{ id: string; name: string }>(gil, `/v1/organizations/${globex}/projects`);
  const members = await list<{ userId: string; email: string }>(ada, `/v1/organizations/${acme}/members`);
  const gilMembers = await list<{ userId: string; email: string }>(gil, `/v1/organizations/${globex}/members`);
  const bots = await list<{ id: string; name: string }>(ada, `/v1/organizations/${acme}/bots`);
  const userId = (email: string) => [...members, ...gilMembers].find((m) => m.email === email)!.userId;
  demoCache = {
    acme,
    globex,
    production: acmeProjects.find((p) => p.name === 'Production')!.id,
    staging: acmeProjects.find((p) => p.name === 'Staging')!.id,
    globexProject: globexProjects[0].id,
    users: { ada: userId(EMAILS.ada), bob: userId(EMAILS.bob), cy: userId(EMAILS.cy), gil: userId(EMAILS.gil) },
    deployBot: bots.find((b) => b.name === 'deploy-bot')!.id,
  };
  await ada.dispose();
  await gil.dispose();
  return demoCache;
}

type TestFixtures = {
  demo: Demo;
  fixtures: Fixtures;
  as: (user: DemoUser) => Promise<APIRequestContext>;
  /** Bob's session: the demo's member with BasicAccess, and the editors' policies on Production only. */
  bob: APIRequestContext;
};

export const test = base.extend<TestFixtures>({
  demo: async ({}, use) => use(await loadDemo()),
  fixtures: async ({}, use) => use(readFixtures()),
  as: async ({}, use) => {
    const opened: APIRequestContext[] = [];
    await use(async (user) => {
      const ctx = await sessionFor(user);
      opened.push(ctx);
      return ctx;
    });
    await Promise.all(opened.map((c) => c.dispose()));
  },
  bob: async ({ as }, use) => use(await as('bob')),
});

export { expect };
