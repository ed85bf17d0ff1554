import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { ApiError, notFound } from '../errors';
import type { Principal } from '../auth/principal';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { grantablePolicies } from '../access/grantable';
import { emailConfigured } from '../notifications/service';
import { sendNow } from '../notifications/mailer';
import { invitationMessage } from '../notifications/messages';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import { newLinkToken } from './tokens';
import type { CreateInvitationBody, Invitation } from './invitation-schema';

const LIFETIME_MS = 7 * 86_400_000;

type Row = typeof t.invitations.$inferSelect & { inviterName: string };

const toInvitation = (r: Row): Invitation => ({
  id: r.id,
  email: r.email,
  policies: r.policies,
  invitedBy: { id: r.invitedBy, name: r.inviterName },
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
});

const pending = (now: Date) =>
  and(isNull(t.invitations.acceptedAt), isNull(t.invitations.revokedAt), gt(t.invitations.expiresAt, now));

async function selectInvitations(organizationId: string, extra: SQL | undefined, limit: number) {
  const db = await getDb();
  const rows = await db
    .select({ invitation: t.invitations, inviterName: t.users.name })
    .from(t.invitations)
    .innerJoin(t.users, eq(t.users.id, t.invitations.invitedBy))
    .where(and(eq(t.invitations.organizationId, organizationId), extra))
    .orderBy(desc(t.invitations.createdAt), desc(t.invitations.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.invitation, inviterName: r.inviterName }));
}

/** The link to pass on, and whether it went by email (SMTP_URL) instead of into the answer. */
async function deliver(
  row: Row,
  token: string,
  origin: string,
  organizationName: string,
): Promise<{ invitation: Invitation; url?: string }> {
  const url = `${origin}/invite/${token}`;
  const invitation = toInvitation(row);
  if (!emailConfigured()) return { invitation, url };
  try {
    await sendNow('invitation', row.email, invitationMessage(organizationName, row.inviterName, url, row.expiresAt));
  } catch (err) {
    // The invitation stands; the inviter sees no link, and resends (a new link) once the mail server answers.
    console.error(`Invitation ${row.id} not emailed:`, (err as Error).message);
  }
  return { invitation };
}

/**
 * An invitation with `invitation.created`, in one transaction: what it gives must be the inviter's to give (400 at
 * its path), and the email must not be a member already (409). Only the token's hash is stored; the link goes by
 * email with SMTP_URL, else into the answer, once.
 */
export async function createInvitation(
  organizationId: string,
  input: CreateInvitationBody,
  inviter: Principal,
  source: AuditSource,
  origin: string,
) {
  const db = await getDb();
  const { token, hash } = newLinkToken();
  const { row, organizationName } = await db.transaction(async (tx) => {
    const policies = await grantablePolicies(tx, organizationId, inviter, input.policies);
    const [member] = await tx
      .select({ one: sql<number>`1` })
      .from(t.memberships)
      .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
      .where(and(eq(t.memberships.organizationId, organizationId), eq(t.users.email, input.email)));
    if (member) throw new ApiError('already_member', `${input.email} is already a member of this organization.`);
    const [org] = await tx
      .select({ name: t.organizations.name })
      .from(t.organizations)
      .where(eq(t.organizations.id, organizationId));
    const [inserted] = await tx
      .insert(t.invitations)
      .values({
        organizationId,
        email: input.email,
        policies,
        invitedBy: inviter.id,
        tokenHash: hash,
        expiresAt: new Date(Date.now() + LIFETIME_MS),
      })
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'invitation.created',
      target: { type: 'invitation', id: inserted.id, name: inserted.email },
      changes: [
        { field: 'email', from: null, to: inserted.email },
        { field: 'policies', from: null, to: policies },
      ],
    });
    return { row: { ...inserted, inviterName: inviter.name }, organizationName: org.name };
  });
  return deliver(row, token, origin, organizationName);
}

/** Pending invitations (neither accepted, revoked nor expired), newest first. */
export async function listInvitations(organizationId: string, page: PageQuery): Promise<Page<Invitation>> {
  const rows = await selectInvitations(
    organizationId,
    and(pending(new Date()), afterCursor(page.cursor, t.invitations.createdAt, t.invitations.id, 'desc')),
    page.limit + 1,
  );
  return toPage(rows, page.limit, (r) => r.createdAt, toInvitation);
}

/** Revokes a pending invitation with `invitation.revoked`; its link dies. Unknown, used or expired: 404. */
export async function revokeInvitation(organizationId: string, invitationId: string, source: AuditSource) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(t.invitations)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(t.invitations.id, invitationId), eq(t.invitations.organizationId, organizationId), pending(new Date())),
      )
      .returning();
    if (!row) throw notFound('No such pending invitation.');
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'invitation.revoked',
      target: { type: 'invitation', id: row.id, name: row.email },
    });
  });
}

/** A new link for a pending invitation, valid 7 days from now; the old link dies in the same statement. */
export async function resendInvitation(
  organizationId: string,
  invitationId: string,
  source: AuditSource,
  origin: string,
) {
  const db = await getDb();
  const { token, hash } = newLinkToken();
  const { row, organizationName } = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(t.invitations)
      .set({ tokenHash: hash, expiresAt: new Date(Date.now() + LIFETIME_MS) })
      .where(
        and(eq(t.invitations.id, invitationId), eq(t.invitations.organizationId, organizationId), pending(new Date())),
      )
      .returning();
    if (!updated) throw notFound('No such pending invitation.');
    const [org] = await tx
      .select({ name: t.organizations.name })
      .from(t.organizations)
      .where(eq(t.organizations.id, organizationId));
    const [by] = await tx.select({ name: t.users.name }).from(t.users).where(eq(t.users.id, updated.invitedBy));
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'invitation.resent',
      target: { type: 'invitation', id: updated.id, name: updated.email },
    });
    return { row: { ...updated, inviterName: by.name }, organizationName: org.name };
  });
  return deliver(row, token, origin, organizationName);
}
