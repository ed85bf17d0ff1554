import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { onBothDatabases } from '../../server/testing/test-database';
import { getDb } from './client';
import { afterCommit } from './commit-hooks';
import { queryRows } from './statement';

/** Whether a probe row is visible to a statement outside the writing transaction (another session, on PostgreSQL). */
async function visible(id: string): Promise<boolean> {
  const rows = await queryRows(await getDb(), sql`select 1 from commit_hook_probes where id = ${id}::uuid`);
  return rows.length === 1;
}

await onBothDatabases('hooks after a commit', 'commit-hooks', () => {
  beforeAll(async () => {
    await (await getDb()).execute(sql`create table if not exists commit_hook_probes (id uuid primary key)`);
  });

  it('run once the transaction has committed, when its rows are visible elsewhere, and not before', async () => {
    const db = await getDb();
    const id = randomUUID();
    const seen: boolean[] = [];
    let checked: Promise<boolean> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into commit_hook_probes (id) values (${id}::uuid)`);
      afterCommit(tx, () => {
        seen.push(true);
        checked = visible(id);
      });
      // Nothing runs while the transaction is open.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([true]);
    expect(await checked).toBe(true);
  });

  it('never run for a transaction rolled back', async () => {
    const db = await getDb();
    const seen: string[] = [];
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into commit_hook_probes (id) values (${randomUUID()}::uuid)`);
        afterCommit(tx, () => seen.push('rolled back'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(seen).toEqual([]);
  });

  it('run at once outside a transaction, and after the outermost commit for a savepoint', async () => {
    const db = await getDb();
    const seen: string[] = [];
    afterCommit(db, () => seen.push('autocommit'));
    expect(seen).toEqual(['autocommit']);
    const id = randomUUID();
    let checked: Promise<boolean> | undefined;
    await db.transaction(async (tx) => {
      await tx.transaction(async (inner) => {
        await inner.execute(sql`insert into commit_hook_probes (id) values (${id}::uuid)`);
        afterCommit(inner, () => {
          seen.push('savepoint');
          checked = visible(id);
        });
      });
      expect(seen).toEqual(['autocommit']);
    });
    expect(seen).toEqual(['autocommit', 'savepoint']);
    expect(await checked).toBe(true);
  });
});
