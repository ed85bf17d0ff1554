import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { GettingStarted } from './schema';

/**
 * An organization's first steps, read from what it holds now (a few indexed reads, none growing with its size): the
 * project each step was done in, or the one where it would be done next, so the console links straight to it.
 */
export async function gettingStarted(organizationId: string, now = new Date()): Promise<GettingStarted> {
  const db = await getDb();
  const inOrg = (table: { organizationId: AnyPgColumn }) => eq(table.organizationId, organizationId);
  const [[project], [members], [invitation], [post], [subscription]] = await Promise.all([
    // The oldest project with alerting on, else the oldest project.
    db
      .select({ id: t.projects.id, alerting: t.projects.alertingEnabled })
      .from(t.projects)
      .where(inOrg(t.projects))
      .orderBy(desc(t.projects.alertingEnabled), asc(t.projects.createdAt), asc(t.projects.id))
      .limit(1),
    db.select({ n: count() }).from(db.select().from(t.memberships).where(inOrg(t.memberships)).limit(2).as('m')),
    db
      .select({ id: t.invitations.id })
      .from(t.invitations)
      .where(
        and(
          inOrg(t.invitations),
          isNull(t.invitations.acceptedAt),
          isNull(t.invitations.revokedAt),
          gt(t.invitations.expiresAt, now),
        ),
      )
      .limit(1),
    db
      .select({ projectId: t.alertPosts.projectId })
      .from(t.alertPosts)
      .where(inOrg(t.alertPosts))
      .orderBy(desc(t.alertPosts.lastAt))
      .limit(1),
    db.select({ projectId: t.subscriptions.projectId }).from(t.subscriptions).where(inOrg(t.subscriptions)).limit(1),
  ]);
  const alerting = project?.alerting ? project.id : null;
  return {
    alerting: { done: alerting !== null, projectId: project?.id ?? null },
    colleague: { done: members.n > 1 || invitation !== undefined, projectId: null },
    sender: { done: post !== undefined, projectId: post?.projectId ?? alerting },
    queue: { done: subscription !== undefined, projectId: subscription?.projectId ?? project?.id ?? null },
  };
}
