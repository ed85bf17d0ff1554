import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { notifyKeyExpiring } from './key-notices';
import { queryRows } from '../db/statement';

/** Reminders before a key expires, in days, nearest first: a key already within a day gets only that one. */
export const REMINDER_DAYS = [1, 7] as const;

type DueKey = {
  id: string;
  name: string;
  prefix: string;
  organization_id: string;
  owner_id: string;
  expires_at: Date | string;
};

/**
 * Tells the owners of user keys expiring within 1 or 7 days, once each: the reminder's row (primary key key +
 * days) is inserted with its notification in one transaction, so whichever instance runs first sends it and
 * the others find it done. A key already within a day gets only the 1-day reminder.
 */
export async function sendExpiryReminders(): Promise<number> {
  const db = await getDb();
  let sent = 0;
  for (const [i, days] of REMINDER_DAYS.entries()) {
    // A key within the nearer reminder's window is that reminder's alone, whichever pass sees it first.
    const nearer = i === 0 ? 0 : REMINDER_DAYS[i - 1];
    sent += await db.transaction(async (tx) => {
      const keys = await queryRows<DueKey>(
        tx,
        sql`
        with due as (
          select k.id, k.name, k.prefix, k.organization_id, k.owner_id, k.expires_at from api_keys k
          where k.revoked_at is null and k.owner_type = 'user'
            and k.expires_at > now() + make_interval(days => ${nearer})
            and k.expires_at <= now() + make_interval(days => ${days})
            and not exists (select 1 from key_expiry_reminders r where r.key_id = k.id and r.days_before <= ${days})
        ), inserted as (
          insert into key_expiry_reminders (key_id, days_before) select id, ${days} from due
          on conflict do nothing returning key_id
        )
        select due.* from due join inserted on inserted.key_id = due.id`,
      );
      for (const k of keys)
        await notifyKeyExpiring(
          tx,
          {
            name: k.name,
            prefix: k.prefix,
            organizationId: k.organization_id,
            ownerId: k.owner_id,
            expiresAt: new Date(k.expires_at),
          },
          days,
        );
      return keys.length;
    });
  }
  return sent;
}
