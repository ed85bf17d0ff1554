import { POLICIES } from '../permissions';
import type { Db } from './client';
import * as t from './schema';

/** Writes the policy table of PRODUCT.md; idempotent, run at every start. */
export async function ensurePolicies(db: Db): Promise<void> {
  for (const [name, permissions] of Object.entries(POLICIES)) {
    await db
      .insert(t.policies)
      .values({ name, permissions })
      .onConflictDoUpdate({ target: t.policies.name, set: { permissions } });
  }
}
