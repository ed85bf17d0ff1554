import { eq, sql } from 'drizzle-orm';
import { PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { getDb } from './client';
import * as t from './schema';
import { jsonRow, jsonRowsStatement, textAsSql } from './statement';
import { onBothDatabases } from '../../server/testing/test-database';

const row = jsonRow({
  id: t.organizations.id,
  name: t.organizations.name,
  requireTwoFactor: t.organizations.requireTwoFactor,
  keyPolicy: t.organizations.keyPolicy,
  createdAt: t.organizations.createdAt,
  nameLength: sql<number>`char_length(${t.organizations.name})`,
});
const read = jsonRowsStatement(
  new QueryBuilder()
    .select({ row: row.sql.as('row') })
    .from(t.organizations)
    .where(eq(t.organizations.id, sql.placeholder('id'))),
  row,
);

function jsonRowSuite() {
  it('reads a row as drizzle maps the same columns: text with quotes and emoji, booleans, JSON, null, timestamps', async () => {
    const db = await getDb();
    const organizations = [
      {
        name: `Quote " back\\slash 'single' 🦜 tab\t`,
        requireTwoFactor: true,
        keyPolicy: { maxLifetimeDays: 30, requireRestrictions: true, allowedIps: ['10.0.0.0/8', '::1'] },
        createdAt: new Date('2026-02-03T04:05:06.789Z'),
      },
      { name: 'plain', requireTwoFactor: false, keyPolicy: null, createdAt: new Date('1999-12-31T23:59:59.001Z') },
    ];
    for (const values of organizations) {
      const [inserted] = await db.insert(t.organizations).values(values).returning();
      const [mapped] = await read({ id: inserted.id });
      const { id, name, requireTwoFactor, keyPolicy, createdAt } = inserted;
      expect(mapped).toEqual({ id, name, requireTwoFactor, keyPolicy, createdAt, nameLength: [...name].length });
      expect(mapped.createdAt).toBeInstanceOf(Date);
    }
  });
}

describe('jsonRow', () => {
  it('reads a timestamp with any offset as the same instant', () => {
    const [at] = Object.values(
      jsonRow({ createdAt: t.organizations.createdAt }).read(['2026-11-26T20:17:25.638+14:00']),
    );
    expect(at).toEqual(new Date('2026-11-26T06:17:25.638Z'));
  });

  it('refuses, when the statement is built, a column type it would not read back as drizzle does', () => {
    expect(() => jsonRow({ seq: t.auditEvents.seq })).toThrow('jsonRow cannot read a PgBigInt53 column');
  });
});

describe('textAsSql', () => {
  it('makes each marked value a parameter, in order, and keeps the text around them', () => {
    const query = new PgDialect().sqlToQuery(
      textAsSql((p) => `select ${p('a\u0000b', 'text')} as x, ${p(7, 'int4')} + ${p(null, 'int4')} from t`),
    );
    expect(query).toMatchObject({
      sql: 'select $1::text as x, $2::int4 + $3::int4 from t',
      params: ['a\u0000b', 7, null],
    });
  });
});

await onBothDatabases('jsonRow', 'json-row', jsonRowSuite);
