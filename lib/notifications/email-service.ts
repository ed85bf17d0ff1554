import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { queryRows } from '../db/statement';

export type PendingEmail = { id: string; to: string; subject: string; body: string; attempts: number };

/** An SMTP failure is retried this many times, a minute apart and more; then the email is given up. */
export const MAX_EMAIL_ATTEMPTS = 5;
const LEASE_SECONDS = 60;

/** Claims pending emails for this instance (rows others hold are skipped), with a lease and an attempt count. */
export async function claimPendingEmails(limit: number): Promise<PendingEmail[]> {
  const db = await getDb();
  return queryRows<PendingEmail>(
    db,
    sql`
    with due as (
      select n.id from notifications n
      where n.email_state = 'pending' and (n.email_locked_until is null or n.email_locked_until < now())
      order by n.created_at
      limit ${limit}
      for update of n skip locked
    ), claimed as (
      update notifications n
      set email_attempts = n.email_attempts + 1, email_locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      from due where n.id = due.id
      returning n.id, n.user_id, n.subject, n.body, n.email_attempts
    )
    select c.id, u.email as "to", c.subject, c.body, c.email_attempts as attempts
    from claimed c join users u on u.id = c.user_id`,
  );
}

/** Sent, or failed: retried after a growing pause until MAX_EMAIL_ATTEMPTS, then given up. */
export async function recordEmailResult(email: PendingEmail, sent: boolean): Promise<void> {
  const db = await getDb();
  const state = sent ? 'sent' : email.attempts >= MAX_EMAIL_ATTEMPTS ? 'failed' : 'pending';
  await db.execute(sql`
    update notifications
    set email_state = ${state},
      email_locked_until = case when ${state} = 'pending' then now() + make_interval(mins => ${email.attempts}) else null end
    where id = ${email.id}::uuid and email_attempts = ${email.attempts}`);
}

/** Undoes a claim not yet recorded (shutdown): the email is due again for any instance at once. */
export async function releaseEmailClaim(email: PendingEmail): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    update notifications set email_attempts = email_attempts - 1, email_locked_until = null
    where id = ${email.id}::uuid and email_attempts = ${email.attempts} and email_state = 'pending'`);
}
