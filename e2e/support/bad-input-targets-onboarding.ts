import { randomBytes, randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { Demo } from '../fixtures';
import type { Target } from './bad-input-targets';

type MakeTarget = (t: Omit<Target, 'check'>, check: (res: APIResponse) => Promise<void>) => Target;

const ids = async (ctx: APIRequestContext, url: string) =>
  ((await (await ctx.get(`${url}?limit=100`)).json()) as { items: { id?: string; userId?: string }[] }).items;

/**
 * The onboarding operations, in an organization ada makes for them, so no probe lands in Acme: each valid
 * request is proved by its success (undone where it can be) or, for a public one, by the 404 that follows validation.
 */
export async function onboardingTargets(ada: APIRequestContext, demo: Demo, target: MakeTarget): Promise<Target[]> {
  void demo;
  const made = await ada.post('/v1/organizations', { data: { name: `bad-input probe ${randomUUID().slice(0, 8)}` } });
  expect(made.status(), await made.text()).toBe(201);
  const org = `/v1/organizations/${((await made.json()) as { id: string }).id}`;
  const project = (await (await ada.post(`${org}/projects`, { data: { name: 'probe' } })).json()) as { id: string };
  const bot = (await (await ada.post(`${org}/bots`, { data: { name: 'probe', policies: [] } })).json()) as {
    id: string;
  };
  const [me] = await ids(ada, `${org}/members`);
  const admin = [{ policy: 'OrganizationAdmin', projectId: null }];
  const basic = [{ policy: 'BasicAccess', projectId: project.id }];
  const unknownToken = randomBytes(32).toString('base64url');
  const status = (n: number) => async (res: APIResponse) => expect(res.status(), await res.text()).toBe(n);

  return [
    target(
      {
        key: 'POST /v1/organizations',
        url: '/v1/organizations',
        method: 'POST',
        valid: { body: { name: 'bad-input probe organization' } },
        snapshot: () => ids(ada, '/v1/organizations'),
      },
      status(201),
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/projects',
        url: `${org}/projects`,
        method: 'POST',
        valid: { body: { name: 'second probe', alertingEnabled: true } },
        snapshot: () => ids(ada, `${org}/projects`),
      },
      status(201),
    ),
    target(
      {
        key: 'PATCH /v1/organizations/{orgId}/projects/{projectId}',
        url: `${org}/projects/${project.id}`,
        method: 'PATCH',
        valid: { body: { name: 'probe', alertingEnabled: false } },
        snapshot: async () => (await ada.get(`${org}/projects`)).json(),
      },
      status(200),
    ),
    target(
      {
        key: 'PUT /v1/organizations/{orgId}/members/{userId}/policies',
        url: `${org}/members/${me.userId}/policies`,
        method: 'PUT',
        valid: { body: { policies: admin } },
        snapshot: async () => (await ada.get(`${org}/members`)).json(),
      },
      status(200),
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/bots',
        url: `${org}/bots`,
        method: 'POST',
        valid: { body: { name: 'bad-input bot', policies: basic } },
        snapshot: () => ids(ada, `${org}/bots`),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        const { id } = (await res.json()) as { id: string };
        expect((await ada.delete(`${org}/bots/${id}`)).status()).toBe(204);
      },
    ),
    target(
      {
        key: 'PUT /v1/organizations/{orgId}/bots/{botId}/policies',
        url: `${org}/bots/${bot.id}/policies`,
        method: 'PUT',
        valid: { body: { policies: basic } },
        snapshot: async () => (await ada.get(`${org}/bots`)).json(),
      },
      status(200),
    ),
    target(
      {
        key: 'POST /v1/organizations/{orgId}/invitations',
        url: `${org}/invitations`,
        method: 'POST',
        valid: { body: { email: 'bad-input@onboarding.test', policies: basic } },
        snapshot: () => ids(ada, `${org}/invitations`),
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        const { invitation } = (await res.json()) as { invitation: { id: string } };
        expect((await ada.delete(`${org}/invitations/${invitation.id}`)).status()).toBe(204);
      },
    ),
    target(
      {
        key: 'GET /v1/organizations/{orgId}/invitations',
        url: `${org}/invitations`,
        method: 'GET',
        valid: { query: { limit: '10' } },
      },
      status(200),
    ),
    // Public: validation comes before the 404 of a token this installation does not know (or a setup already done).
    target(
      {
        key: 'POST /v1/setup',
        url: '/v1/setup',
        method: 'POST',
        valid: {
          body: {
            token: unknownToken,
            name: 'Probe',
            email: 'probe@onboarding.test',
            password: 'long enough secret',
            organizationName: 'P',
          },
        },
      },
      status(404),
    ),
    target(
      {
        key: 'POST /v1/set-password',
        url: '/v1/set-password',
        method: 'POST',
        valid: { body: { token: unknownToken, password: 'long enough secret' } },
      },
      status(404),
    ),
    target(
      {
        key: 'POST /v1/invitations/{token}/accept',
        url: `/v1/invitations/${unknownToken}/accept`,
        method: 'POST',
        valid: { body: { name: 'Probe', password: 'long enough secret' } },
      },
      status(404),
    ),
  ];
}

export const ONBOARDING_TARGET_KEYS = [
  'POST /v1/organizations',
  'POST /v1/organizations/{orgId}/projects',
  'PATCH /v1/organizations/{orgId}/projects/{projectId}',
  'PUT /v1/organizations/{orgId}/members/{userId}/policies',
  'POST /v1/organizations/{orgId}/bots',
  'PUT /v1/organizations/{orgId}/bots/{botId}/policies',
  'POST /v1/organizations/{orgId}/invitations',
  'GET /v1/organizations/{orgId}/invitations',
  'POST /v1/setup',
  'POST /v1/set-password',
  'POST /v1/invitations/{token}/accept',
];
