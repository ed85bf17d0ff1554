import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { getDb } from '../db/client';
import { queryRows } from '../db/statement';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { DELIVERABLE_TEXT, kept, LOCKED_COLUMNS_TEXT, RETENTION_START } from './delivery-rules';

withEmptyEmbeddedDatabase('delivery-rules');

/** `text` with each run of white space as one space: the functions' bodies break their lines elsewhere. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const rendered = (query: SQL) => flat(new PgDialect().sqlToQuery(query).sql);

/** The definition of a function of the migrations, as the database holds it. */
async function definition(name: string): Promise<string> {
  const [row] = await queryRows<{ def: string }>(
    await getDb(),
    sql`select pg_get_functiondef(p.oid) as def from pg_proc p where p.proname = ${name}`,
  );
  return flat(row.def);
}

it("subscription_finish_v1's refill selects the claim's columns, of deliverable subscriptions only", async () => {
  const finish = await definition('subscription_finish_v1');
  expect(finish).toContain(`select ${flat(LOCKED_COLUMNS_TEXT)} from subscriptions s`);
  expect(finish).toContain(`and ${flat(DELIVERABLE_TEXT)}`);
});

it("subscription_lease_v1 keeps the claim's rule of retention: a message past it is never leased", async () => {
  const lease = await definition('subscription_lease_v1');
  expect(lease).toContain(`${rendered(RETENTION_START)} as kept_since`);
  expect(lease).toContain(rendered(kept(sql.raw('sl.kept_since'))));
});
