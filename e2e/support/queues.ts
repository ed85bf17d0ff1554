import { randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { CloudEvent, CONSTANTS, HTTP, type Message } from 'cloudevents';
import type { components } from '../../lib/api-types';
import { expect } from '../fixtures';
import { createKey } from './api-keys';

export type Queue = components['schemas']['Queue'];

export const queuesPath = (orgId: string, projectId: string) =>
  `/v1/organizations/${orgId}/projects/${projectId}/queues`;
export const queuePath = (q: Pick<Queue, 'organizationId' | 'projectId' | 'id'>) =>
  `${queuesPath(q.organizationId, q.projectId)}/${q.id}`;
export const messagesPath = (q: Pick<Queue, 'organizationId' | 'projectId' | 'id'>) => `${queuePath(q)}/messages`;

/** A name no other run or test has: queues are the test's own. */
export const queueName = (what: string) => `${what}-${randomUUID().slice(0, 8)}`;

export async function createQueue(
  ctx: APIRequestContext,
  orgId: string,
  projectId: string,
  body: Record<string, unknown>,
): Promise<Queue> {
  const res = await ctx.post(queuesPath(orgId, projectId), { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Queue;
}

export async function listQueues(ctx: APIRequestContext, orgId: string, projectId: string): Promise<Queue[]> {
  const res = await ctx.get(`${queuesPath(orgId, projectId)}?limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: Queue[] }).items;
}

/** A demo queue by name (`orders` in Production, `events` in Staging and Globex's project). */
export async function queueNamed(ctx: APIRequestContext, orgId: string, projectId: string, name: string) {
  const queue = (await listQueues(ctx, orgId, projectId)).find((q) => q.name === name);
  if (!queue) throw new Error(`no queue ${name}`);
  return queue;
}

/** The ids a 202 answered (to a Playwright request or a fetch), after checking it is one. */
export async function publishedIds(res: APIResponse | Response): Promise<string[]> {
  const text = await res.text();
  expect(typeof res.status === 'number' ? res.status : res.status(), text).toBe(202);
  const { messageIds } = JSON.parse(text) as { messageIds: string[] };
  for (const id of messageIds) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return messageIds;
}

/**
 * A bot with only `QueuePublisher` on a project with a queue `jobs`, and its key, in an organization ada makes for
 * the test, so the demo's bots stay as they are.
 */
export async function queuePublisher(ada: APIRequestContext) {
  const made = await ada.post('/v1/organizations', { data: { name: `queues ${randomUUID().slice(0, 8)}` } });
  expect(made.status(), await made.text()).toBe(201);
  const orgId = ((await made.json()) as { id: string }).id;
  const project = await ada.post(`/v1/organizations/${orgId}/projects`, { data: { name: 'app' } });
  const projectId = ((await project.json()) as { id: string }).id;
  const queue = await createQueue(ada, orgId, projectId, { name: 'jobs' });
  const bot = await ada.post(`/v1/organizations/${orgId}/bots`, {
    data: { name: 'publisher', policies: [{ policy: 'QueuePublisher', projectId }] },
  });
  expect(bot.status(), await bot.text()).toBe(201);
  const botId = ((await bot.json()) as { id: string }).id;
  const { secret } = await createKey(ada, orgId, { name: 'publisher', botId, expiresInDays: 1 });
  return { orgId, projectId, queue, secret };
}

/** An event as an application makes it with the CloudEvents SDK. */
export const sdkEvent = (fields: Record<string, unknown> = {}) =>
  new CloudEvent({ source: '/e2e/orders', type: 'com.example.order.created', data: { order: 7 }, ...fields });

/** Sends what the SDK's HTTP emitter made (its headers and body as they are), with fetch, as a client would. */
export function sendMessage(url: string, message: Message, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...(message.headers as Record<string, string>), ...headers },
    body: typeof message.body === 'string' ? message.body : new Uint8Array(message.body as Buffer),
  });
}

/** A batch of SDK events: the SDK has no batch emitter, so its events in the batched format's media type. */
export const batchMessage = (events: CloudEvent<unknown>[]): Message => ({
  headers: { 'content-type': CONSTANTS.MIME_CE_BATCH },
  body: JSON.stringify(events),
});

export const structuredMessage = (event: CloudEvent<unknown>) => HTTP.structured(event);
export const binaryMessage = (event: CloudEvent<unknown>) => HTTP.binary(event);
