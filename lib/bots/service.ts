import { and, eq, isNull } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { bindingsByPrincipal, removeBindingsOf } from '../access/service';
import { keyRevokedEvent, revokeKeysOf } from '../api-keys/service';
import { idNotFound } from '../errors';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvents } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { mapPage, pageInCreationOrder } from '../http/page-rows';
import type { Page, PageQuery } from '../http/pagination';
import type { Bot } from './schema';

export async function listBots(organizationId: string, page: PageQuery): Promise<Page<Bot>> {
  const rows = await pageInCreationOrder(
    t.bots,
    and(eq(t.bots.organizationId, organizationId), isNull(t.bots.deletedAt)),
    page,
  );
  const policies = await bindingsByPrincipal(
    organizationId,
    'bot',
    rows.items.map((r) => r.id),
  );
  return mapPage(rows, (r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    policies: policies.get(r.id) ?? [],
  }));
}

/**
 * Soft-deletes a bot in one transaction with its consequences: its policy bindings go and every key it
 * owns is revoked (`bot_deleted`). The row stays so revoked keys keep a named owner.
 */
export async function deleteBot(
  organizationId: string,
  botId: string,
  source: AuditSource,
): Promise<{ revokedKeys: number }> {
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const deleted = await tx
      .update(t.bots)
      .set({ deletedAt: new Date() })
      .where(and(eq(t.bots.id, botId), eq(t.bots.organizationId, organizationId), isNull(t.bots.deletedAt)))
      .returning({ id: t.bots.id, name: t.bots.name });
    if (deleted.length === 0) throw idNotFound('bot', botId);
    await removeBindingsOf(tx, organizationId, { type: 'bot', id: botId });
    const revoked = await revokeKeysOf(tx, { type: 'bot', id: botId }, 'bot_deleted', {
      organizationId,
      byId: source.actor.id,
    });
    await bumpAuthEpoch(tx);
    await recordAuditEvents(tx, [
      { ...source, organizationId, action: 'bot.deleted', target: { type: 'bot', id: botId, name: deleted[0].name } },
      ...revoked.map((key) => keyRevokedEvent(key, 'bot_deleted', source)),
    ]);
    return { revokedKeys: revoked.length };
  });
  invalidateAuthCaches();
  return result;
}
