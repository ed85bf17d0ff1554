import { sql } from 'drizzle-orm';
import { PERMISSIONS, POLICIES } from '../permissions';
import type { Db } from './client';
import * as t from './schema';

const KNOWN = sql`array[${sql.join(
  PERMISSIONS.map((p) => sql`${p}`),
  sql`, `,
)}]::text[]`;

/**
 * Writes the policy table of PRODUCT.md; idempotent, run at every start. A permission this build does not know
 * was written by a newer release running beside it in a roll: it is kept, or restarting this instance would take
 * the newer release's new permission from every member until that release restarted again.
 */
export async function ensurePolicies(db: Db): Promise<void> {
  for (const [name, permissions] of Object.entries(POLICIES)) {
    await db
      .insert(t.policies)
      .values({ name, permissions })
      .onConflictDoUpdate({
        target: t.policies.name,
        set: {
          permissions: sql`excluded.permissions || array(select p from unnest(${t.policies.permissions}) p where p <> all(${KNOWN}))`,
        },
      });
  }
}
