import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { notFound } from '../errors';
import type { ApiKeyLeak } from './schema';
import type { Owner } from './service';

const noticeOpen = (organizationId: string) =>
  and(
    eq(t.apiKeys.organizationId, organizationId),
    isNotNull(t.apiKeys.leakedAt),
    isNull(t.apiKeys.leakNoticeDismissedAt),
  );

const ownedBy = (owner: Owner | null) =>
  owner ? and(eq(t.apiKeys.ownerType, owner.type), eq(t.apiKeys.ownerId, owner.id)) : undefined;

/** Keys a leak report revoked whose notice nobody has dismissed yet, newest first (at most 100). */
export async function listLeakNotices(organizationId: string, owner: Owner | null): Promise<ApiKeyLeak[]> {
  const db = await getDb();
  const rows = await db
    .select({
      keyId: t.apiKeys.id,
      name: t.apiKeys.name,
      prefix: t.apiKeys.prefix,
      ownerType: t.apiKeys.ownerType,
      ownerId: t.apiKeys.ownerId,
      ownerName: sql<string | null>`coalesce(${t.users.name}, ${t.bots.name})`,
      url: t.apiKeys.leakUrl,
      leakedAt: t.apiKeys.leakedAt,
    })
    .from(t.apiKeys)
    .leftJoin(t.users, and(eq(t.apiKeys.ownerType, 'user'), eq(t.users.id, t.apiKeys.ownerId)))
    .leftJoin(t.bots, and(eq(t.apiKeys.ownerType, 'bot'), eq(t.bots.id, t.apiKeys.ownerId)))
    .where(and(noticeOpen(organizationId), ownedBy(owner)))
    .orderBy(desc(t.apiKeys.leakedAt))
    .limit(100);
  return rows.map((r) => ({
    keyId: r.keyId,
    name: r.name,
    prefix: r.prefix,
    owner: { type: r.ownerType, id: r.ownerId, name: r.ownerName ?? '' },
    url: r.url,
    leakedAt: r.leakedAt!.toISOString(),
  }));
}

/** The owner of a key with an open leak notice, or null. */
export async function findLeakNoticeOwner(organizationId: string, keyId: string): Promise<Owner | null> {
  const db = await getDb();
  const [row] = await db
    .select({ type: t.apiKeys.ownerType, id: t.apiKeys.ownerId })
    .from(t.apiKeys)
    .where(and(noticeOpen(organizationId), eq(t.apiKeys.id, keyId)));
  return row ?? null;
}

/** Hides the notice for everyone; the key stays revoked and the audit log keeps the report. */
export async function dismissLeakNotice(organizationId: string, keyId: string, now = new Date()): Promise<void> {
  const db = await getDb();
  const done = await db
    .update(t.apiKeys)
    .set({ leakNoticeDismissedAt: now })
    .where(and(noticeOpen(organizationId), eq(t.apiKeys.id, keyId)))
    .returning({ id: t.apiKeys.id });
  if (done.length === 0) throw notFound('No such leak notice.');
}
