import { and, eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { AlertScope } from './service';

/** A post within this long of the one this instance last wrote is not written: the time shown is at most this old. */
export const POST_NOTE_MS = 5_000;

// Per project, when this instance last wrote its time: a sender resending every few seconds costs a statement only
// every POST_NOTE_MS. Bounded: a project dropped from it is written once more on its next post.
const written = new LRUCache<string, number>({ max: 10_000 });

/** Notes that the project's Alertmanager API received a post of alerts now (stored, refused or undecodable). */
export async function recordPost(scope: AlertScope, now = new Date()): Promise<void> {
  const key = `${scope.organizationId}/${scope.projectId}`;
  const last = written.get(key);
  if (last !== undefined && now.getTime() - last < POST_NOTE_MS && now.getTime() >= last) return;
  written.set(key, now.getTime());
  const db = await getDb();
  await db
    .insert(t.alertPosts)
    .values({ ...scope, lastAt: now })
    .onConflictDoUpdate({
      target: [t.alertPosts.organizationId, t.alertPosts.projectId],
      set: { lastAt: sql`greatest(${t.alertPosts.lastAt}, excluded.last_at)` },
    });
}

/** When the project's Alertmanager API last received a post of alerts, or null when it never did. */
export async function lastPostAt(scope: AlertScope): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ lastAt: t.alertPosts.lastAt })
    .from(t.alertPosts)
    .where(and(eq(t.alertPosts.organizationId, scope.organizationId), eq(t.alertPosts.projectId, scope.projectId)));
  return row?.lastAt.toISOString() ?? null;
}
