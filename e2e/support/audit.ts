import { expect, type APIRequestContext } from '@playwright/test';
import type { AuditEvent } from '../../lib/db/audit-types';

export type { AuditEvent };

export const auditPath = (orgId: string) => `/v1/organizations/${orgId}/audit-events`;

export async function auditEvents(ctx: APIRequestContext, orgId: string, query = ''): Promise<AuditEvent[]> {
  const res = await ctx.get(`${auditPath(orgId)}?limit=100${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: AuditEvent[] }).items;
}

/** The events about one target (a silence, a subscription, a key), oldest first. */
export async function auditEventsAbout(ctx: APIRequestContext, orgId: string, targetId: string): Promise<AuditEvent[]> {
  return (await auditEvents(ctx, orgId, `&targetId=${targetId}`)).reverse();
}

/** The newest seq of the organization's log, to read only what a step adds after it. */
export async function newestSeq(ctx: APIRequestContext, orgId: string): Promise<number> {
  return (await auditEvents(ctx, orgId, '&limit=1'))[0]?.seq ?? 0;
}

/** Events written after `seq`, oldest first; without the sign-ins of the sessions a test opens on the way. */
export async function eventsAfter(
  ctx: APIRequestContext,
  orgId: string,
  seq: number,
  { signIns = false } = {},
): Promise<AuditEvent[]> {
  // Housekeeping ends an earlier file's rolled key on its own minute (api-keys-roll.spec.ts rolls one with a 2 s
  // grace): a system event no test here caused, whenever it lands.
  const graceEnded = (e: AuditEvent) => e.actor.type === 'system' && e.reason === 'roll_grace_ended';
  return (await auditEvents(ctx, orgId))
    .filter((e) => e.seq > seq && (signIns || !e.action.startsWith('sign_in.')) && !graceEnded(e))
    .reverse();
}

export async function verifyChain(ctx: APIRequestContext, orgId: string) {
  const res = await ctx.get(`${auditPath(orgId)}/verify`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { verified: number; firstBrokenSeq: number | null };
}

export type AuditVerificationJob = {
  id: string;
  state: 'running' | 'succeeded' | 'failed';
  verified: number;
  total: number;
  firstBrokenSeq: number | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

/** Starts the full re-verification job and polls it until it ends. */
export async function verifyWholeChain(ctx: APIRequestContext, orgId: string): Promise<AuditVerificationJob> {
  const res = await ctx.post(`${auditPath(orgId)}/verifications`);
  expect(res.status(), await res.text()).toBe(202);
  const { id } = (await res.json()) as AuditVerificationJob;
  let job: AuditVerificationJob;
  await expect
    .poll(
      async () => {
        job = (await (await ctx.get(`${auditPath(orgId)}/verifications/${id}`)).json()) as AuditVerificationJob;
        return job.state;
      },
      { timeout: 30_000 },
    )
    .not.toBe('running');
  return job!;
}
