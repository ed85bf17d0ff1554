import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuildCanServe, buildSchema, SchemaFloorError } from './schema-floor';

const folder = path.join(process.cwd(), 'drizzle');
const db = new PGlite();
const query = (text: string) => db.query(text);
const known = buildSchema(folder).migrations;

beforeAll(async () => {
  await db.exec('create schema drizzle; create table drizzle.__drizzle_migrations (id serial primary key)');
});
afterAll(() => db.close());

describe('the schema floor', () => {
  it('lets a database older than the floor table be served (the release before it)', async () => {
    await expect(assertBuildCanServe(query, folder)).resolves.toBeUndefined();
  });

  it('lets a database at or below this build be served, as its migration 0013 leaves it', async () => {
    for (const statement of readFileSync(path.join(folder, '0013_schema_floor.sql'), 'utf8').split(
      '--> statement-breakpoint',
    ))
      await db.exec(statement);
    await expect(assertBuildCanServe(query, folder)).resolves.toBeUndefined();
    await db.exec(`update drizzle.schema_floor set min_schema = ${known}, raised_by = '00${known}_contract'`);
    await expect(assertBuildCanServe(query, folder)).resolves.toBeUndefined();
  });

  it('refuses a database contracted past this build, naming both schemas', async () => {
    await db.exec(`insert into drizzle.__drizzle_migrations select from generate_series(1, ${known + 2})`);
    await db.exec(`update drizzle.schema_floor set min_schema = ${known + 1}, raised_by = '00${known + 2}_drop_x'`);
    const refusal = assertBuildCanServe(query, folder);
    await expect(refusal).rejects.toThrow(SchemaFloorError);
    await expect(refusal).rejects.toThrow(
      `schema ${known}: migrations up to ${buildSchema(folder).last}) cannot serve this database (schema ${known + 2}): ` +
        `migration 00${known + 2}_drop_x removed what builds before schema ${known + 1} use`,
    );
  });
});
