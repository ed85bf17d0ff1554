import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POLICIES } from '../permissions';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { getDb } from './client';
import { ensurePolicies } from './policies';
import * as t from './schema';

describe('ensurePolicies', () => {
  withEmptyEmbeddedDatabase('policies');

  it('writes this build’s policies, and keeps a permission only a newer release knows', async () => {
    const db = await getDb();
    const basic = async () =>
      (await db.select().from(t.policies).where(eq(t.policies.name, 'BasicAccess')))[0].permissions;
    expect(await basic()).toEqual(POLICIES.BasicAccess);
    // A newer release added one; an older one's stale entry of a permission this build knows is put right.
    await db
      .update(t.policies)
      .set({ permissions: ['apiKeys.create', 'future.thing.list'] })
      .where(eq(t.policies.name, 'BasicAccess'));
    await ensurePolicies(db);
    expect(await basic()).toEqual([...POLICIES.BasicAccess, 'future.thing.list']);
  });
});
