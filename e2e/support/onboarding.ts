import { randomUUID } from 'node:crypto';
import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { sessionFor } from '../fixtures';
import { baseURL, E2E } from './env';
import { startSmtp } from './smtp-receiver';

export type Binding = { policy: string; projectId: string | null };
export type Org = { id: string; name: string };
export type Issued = { invitation: { id: string; email: string; policies: Binding[] }; url?: string };

export const PASSWORD = 'a long enough password';
export const orgScope = (...policies: string[]): Binding[] => policies.map((policy) => ({ policy, projectId: null }));
export const freshEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@onboarding.test`;
export const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** A new organization made by `owner` (a session), who is then its OrganizationAdmin. */
export async function newOrg(owner: APIRequestContext, label: string): Promise<Org> {
  const res = await owner.post('/v1/organizations', { data: { name: `${label} ${randomUUID().slice(0, 8)}` } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Org;
}

let smtp: Awaited<ReturnType<typeof startSmtp>> | null = null;

/** The main test server emails invitations (SMTP_URL, playwright.config.ts): a spec that invites receives them. */
export function receiveInvitations() {
  return {
    start: async () => void (smtp = await startSmtp(E2E.port + 60)),
    stop: async () => {
      await smtp?.close();
      smtp = null;
    },
  };
}

/** The newest invitation link emailed to `email`. */
export function mailedLink(email: string): string {
  const mails = smtp?.mails.filter((m) => m.to.includes(email)) ?? [];
  const match = /(https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43})/.exec(mails.at(-1)?.raw ?? '');
  if (!match) throw new Error(`no invitation mailed to ${email}`);
  return match[1];
}

/** An invitation; its link is the answer's `url` without SMTP_URL, else the one emailed. */
export async function invite(admin: APIRequestContext, orgId: string, email: string, policies: Binding[]) {
  const res = await admin.post(`/v1/organizations/${orgId}/invitations`, { data: { email, policies } });
  expect(res.status(), await res.text()).toBe(201);
  const issued = (await res.json()) as Issued;
  return { ...issued, link: issued.url ?? mailedLink(email) };
}

export const anonymous = (url = baseURL) =>
  playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { Origin: url } });

/** A person who joins `orgId` through an invitation with `policies`, making their account; signed in. */
export async function joined(admin: APIRequestContext, orgId: string, label: string, policies: Binding[]) {
  const email = freshEmail(label);
  const { link } = await invite(admin, orgId, email, policies);
  const anon = await anonymous();
  const res = await anon.post(`/v1/invitations/${tokenOf(link)}/accept`, { data: { name: label, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  const { user } = (await res.json()) as { user: { id: string } };
  await anon.dispose();
  return { email, userId: user.id, session: await signedIn(email) };
}

export async function signedIn(email: string, url = baseURL): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { Origin: url } });
  const { csrfToken } = (await (await ctx.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await ctx.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password: PASSWORD, json: 'true' },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(res.status());
  expect((await ctx.get('/v1/organizations')).status()).toBe(200);
  return ctx;
}

export async function members(admin: APIRequestContext, orgId: string) {
  const res = await admin.get(`/v1/organizations/${orgId}/members?limit=100`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: { userId: string; email: string; policies: Binding[] }[] }).items;
}

export { sessionFor };
