import { and, eq, isNull } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { InvitedPolicy } from '../db/onboarding-schema';
import { ApiError, idNotFound } from '../errors';
import type { Principal } from '../auth/principal';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { bindingsIn, bindingsByPrincipal } from '../access/service';
import { grantablePolicies, writeBindings } from '../access/grantable';
import type { Bot } from './schema';

async function botOf(organizationId: string, botId: string): Promise<Bot> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(t.bots)
    .where(and(eq(t.bots.id, botId), eq(t.bots.organizationId, organizationId)));
  const policies = await bindingsByPrincipal(organizationId, 'bot', [botId]);
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), policies: policies.get(botId) ?? [] };
}

/** A bot with its bindings, in one transaction with `bot.created`; a live bot's name is unique (409 `bot_name_taken`). */
export async function createBot(
  organizationId: string,
  input: { name: string; policies: InvitedPolicy[] },
  caller: Principal,
  source: AuditSource,
): Promise<Bot> {
  const db = await getDb();
  const botId = await db.transaction(async (tx) => {
    const policies = await grantablePolicies(tx, organizationId, caller, input.policies);
    // The partial unique index on live names decides, so two creations of one name cannot both pass.
    const [row] = await tx
      .insert(t.bots)
      .values({ organizationId, name: input.name })
      .onConflictDoNothing()
      .returning({ id: t.bots.id, name: t.bots.name });
    if (!row) throw new ApiError('bot_name_taken', `A bot of this organization is already called ${input.name}.`);
    await writeBindings(tx, organizationId, { type: 'bot', id: row.id }, policies);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'bot.created',
      target: { type: 'bot', id: row.id, name: row.name },
      changes: [
        { field: 'name', from: null, to: row.name },
        { field: 'policies', from: null, to: policies },
      ],
    });
    return row.id;
  });
  return botOf(organizationId, botId);
}

/**
 * Replaces a bot's bindings with `bot.policies_changed` (before and after): 400 for what may not be given, then 404
 * for a bot that is not live in the organization. Its keys feel the change on their next request, on every instance.
 */
export async function setBotPolicies(
  organizationId: string,
  botId: string,
  requested: InvitedPolicy[],
  caller: Principal,
  source: AuditSource,
): Promise<Bot> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [bot] = await tx
      .select({ id: t.bots.id, name: t.bots.name })
      .from(t.bots)
      .where(and(eq(t.bots.id, botId), eq(t.bots.organizationId, organizationId), isNull(t.bots.deletedAt)))
      .for('update');
    const before = bot ? await bindingsIn(tx, organizationId, { type: 'bot', id: botId }) : [];
    const after = await grantablePolicies(tx, organizationId, caller, requested, before);
    if (!bot) throw idNotFound('bot', botId);
    await writeBindings(tx, organizationId, { type: 'bot', id: botId }, after);
    await bumpAuthEpoch(tx);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'bot.policies_changed',
      target: { type: 'bot', id: botId, name: bot.name },
      changes: [{ field: 'policies', from: before, to: after }],
    });
  });
  invalidateAuthCaches();
  return botOf(organizationId, botId);
}
