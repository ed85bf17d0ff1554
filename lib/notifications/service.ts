import { and, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { Permission } from '../permissions';
import { afterCursor, toPage, type PageQuery } from '../http/pagination';
import { NOTIFICATION_KINDS, type Message, type NotificationKind } from './messages';
import type { NotificationPage, NotificationPreferences } from './schema';
import { settings } from '../settings/settings';
import { hook } from '../hooks';
import { afterCommit } from '../db/commit-hooks';
import { affectedRows } from '../db/statement';

/** Email goes out only where SMTP_URL is set; the console list gets every notification either way. */
export const emailConfigured = () => Boolean(settings().SMTP_URL);

/**
 * Who is told that emails were queued: this instance's email loop (server/hooks.ts), which then sends at once
 * rather than at its next poll (WEBHOOK_POLL_MS); other instances find them at theirs.
 */
export const emailsQueued = hook<() => void>('emails-queued');

/**
 * Notifies users inside the caller's transaction, so a notice exists exactly when its cause committed: one row
 * per user who has not turned the kind off, its email pending when SMTP is configured. One statement.
 */
export async function notifyUsers(
  tx: DbOrTx,
  userIds: string[],
  organizationId: string | null,
  kind: NotificationKind,
  message: Message,
): Promise<void> {
  const users = [...new Set(userIds)];
  if (users.length === 0) return;
  const emailState = emailConfigured() ? 'pending' : 'none';
  const result = await tx.execute(sql`
    insert into notifications (user_id, organization_id, kind, subject, body, email_state)
    select u.id, ${organizationId}::uuid, ${kind}, ${message.subject}, ${message.body}, ${emailState}
    from users u
    where u.id in (${sql.join(
      users.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and u.status = 'active'
      and not exists (select 1 from notification_preferences p where p.user_id = u.id and p.kind = ${kind} and not p.enabled)`);
  // Once committed: the email loop's claim then sees the rows.
  if (emailState === 'pending' && affectedRows(result) > 0) afterCommit(tx, () => emailsQueued.find()?.());
}

/** The organization's admins: active members bound to a policy with `orgs.update` at organization scope. */
export async function organizationAdmins(tx: DbOrTx, organizationId: string): Promise<string[]> {
  return membersHolding(tx, organizationId, 'orgs.update', null);
}

/**
 * The members who hold `permission` through a binding at organization scope or, given a project, on that
 * project: whom a notice about one of its resources goes to.
 */
export async function membersHolding(
  tx: DbOrTx,
  organizationId: string,
  permission: Permission,
  projectId: string | null,
): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ userId: t.memberships.userId })
    .from(t.memberships)
    .innerJoin(
      t.policyBindings,
      and(
        eq(t.policyBindings.organizationId, t.memberships.organizationId),
        eq(t.policyBindings.principalType, 'user'),
        eq(t.policyBindings.principalId, t.memberships.userId),
        projectId === null
          ? isNull(t.policyBindings.projectId)
          : or(isNull(t.policyBindings.projectId), eq(t.policyBindings.projectId, projectId)),
      ),
    )
    .innerJoin(t.policies, eq(t.policies.name, t.policyBindings.policy))
    .where(and(eq(t.memberships.organizationId, organizationId), sql`${permission} = any(${t.policies.permissions})`));
  return rows.map((r) => r.userId);
}

export async function listNotifications(userId: string, query: PageQuery): Promise<NotificationPage> {
  const db = await getDb();
  const n = t.notifications;
  const [rows, [unread]] = await Promise.all([
    db
      .select()
      .from(n)
      .where(and(eq(n.userId, userId), afterCursor(query.cursor, n.createdAt, n.id, 'desc')))
      .orderBy(desc(n.createdAt), desc(n.id))
      .limit(query.limit + 1),
    db
      .select({ unread: count() })
      .from(n)
      .where(and(eq(n.userId, userId), isNull(n.readAt))),
  ]);
  const page = toPage(
    rows,
    query.limit,
    (r) => r.createdAt,
    (r) => ({
      id: r.id,
      kind: r.kind,
      organizationId: r.organizationId,
      subject: r.subject,
      body: r.body,
      read: r.readAt !== null,
      createdAt: r.createdAt.toISOString(),
    }),
  );
  return { ...page, unread: unread.unread };
}

/** Marks the user's notifications read (the ones named, or all); others' ids are ignored, never revealed. */
export async function markNotificationsRead(
  userId: string,
  ids: string[] | undefined,
  now = new Date(),
): Promise<void> {
  if (ids && ids.length === 0) return;
  const db = await getDb();
  const n = t.notifications;
  await db
    .update(n)
    .set({ readAt: now })
    .where(and(eq(n.userId, userId), isNull(n.readAt), ids ? inArray(n.id, ids) : undefined));
}

export async function notificationPreferences(userId: string): Promise<NotificationPreferences> {
  const db = await getDb();
  const rows = await db.select().from(t.notificationPreferences).where(eq(t.notificationPreferences.userId, userId));
  const off = new Set(rows.filter((r) => !r.enabled).map((r) => r.kind));
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !off.has(kind)])) as NotificationPreferences;
}

export async function updateNotificationPreferences(
  userId: string,
  changes: Partial<Record<NotificationKind, boolean>>,
): Promise<NotificationPreferences> {
  const db = await getDb();
  const rows = Object.entries(changes)
    .filter((entry): entry is [NotificationKind, boolean] => typeof entry[1] === 'boolean')
    .map(([kind, enabled]) => ({ userId, kind, enabled }));
  if (rows.length > 0)
    await db
      .insert(t.notificationPreferences)
      .values(rows)
      .onConflictDoUpdate({
        target: [t.notificationPreferences.userId, t.notificationPreferences.kind],
        set: { enabled: sql`excluded.enabled` },
      });
  return notificationPreferences(userId);
}
