import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, type Demo } from '../fixtures';
import { E2E } from './env';

export type FixtureName =
  | 'scheduled race'
  | 'scheduled idempotency'
  | 'scheduled edits'
  | 'scheduled start now'
  | 'scheduled ui'
  | 'active edits'
  | 'active end now';

/** Ids of the test-only silences seeded by prepare-db (their comments change as tests run). */
export function fixtureSilenceIds(): Record<FixtureName, string> {
  return JSON.parse(readFileSync(path.join(E2E.stateDir, 'silences-fixtures.json'), 'utf8')) as Record<
    FixtureName,
    string
  >;
}

export type Silence = {
  id: string;
  projectId: string;
  resourceName: string;
  slug: string;
  comment: string;
  matchers: { label: string; op: string; value: string }[];
  startsAt: string;
  endsAt: string;
  state: 'scheduled' | 'active' | 'expired';
  createdAt: string;
  updatedAt: string;
  createdBy: { id: string; type: string; name: string };
  updatedBy: { id: string; type: string; name: string };
  version: number;
};

export const silencesPath = (orgId: string, projectId: string) =>
  `/v1/organizations/${orgId}/projects/${projectId}/obs/silences`;
export const productionSilences = (demo: Demo) => silencesPath(demo.acme, demo.production);

export async function listAll(ctx: APIRequestContext, path: string): Promise<Silence[]> {
  const res = await ctx.get(`${path}?limit=100`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Silence[] }).items;
}

/** A test-only silence of Production, as it is now. */
export async function findSilence(ctx: APIRequestContext, demo: Demo, name: FixtureName): Promise<Silence> {
  return (await read(ctx, demo, fixtureSilenceIds()[name])).silence;
}

/** The demo silence of Production in a given state (never a test fixture). */
export async function demoSilence(ctx: APIRequestContext, demo: Demo, state: Silence['state']): Promise<Silence> {
  const fixtures = new Set(Object.values(fixtureSilenceIds()));
  const all = await listAll(ctx, productionSilences(demo));
  const found = all.find((s) => s.state === state && !fixtures.has(s.id));
  if (!found) throw new Error(`no demo silence in state ${state}`);
  return found;
}

export async function read(
  ctx: APIRequestContext,
  demo: Demo,
  id: string,
): Promise<{ silence: Silence; etag: string }> {
  const res = await ctx.get(`${productionSilences(demo)}/${id}`);
  expect(res.status()).toBe(200);
  return { silence: (await res.json()) as Silence, etag: res.headers()['etag'] };
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const inHours = (hours: number, from = Date.now()) => new Date(from + hours * 3_600_000).toISOString();
