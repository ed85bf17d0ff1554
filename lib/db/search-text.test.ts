import fc from 'fast-check';
import { expect, it } from 'vitest';
import { runStatement } from './client';
import { onBothDatabases } from '../../server/testing/test-database';

/**
 * Migration 0017 made silence writes cheaper without changing what they store. It rewrote `silence_search_text`
 * in PL/pgSQL: the stored `search_text` of every silence was computed by the SQL function it replaced, and the
 * previous release still computes that expression during a roll, so the two must agree on every input. The SQL
 * function's body, inline here, is the reference.
 */
const REFERENCE = `$1::text || coalesce((select string_agg(E'\\n' || (m ->> 'label') || E'\\n' || (m ->> 'value'), '')
  from jsonb_array_elements($2::jsonb) as m), '')`;

// PostgreSQL's text holds no NUL character; everything else, newlines and quotes among it, may appear.
const text = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replaceAll('\u0000', ''));
const jsonValue = fc.oneof(text, fc.constant(null), fc.integer(), fc.boolean());
const matcher = fc.oneof(
  { weight: 6, arbitrary: fc.record({ label: text, op: fc.constantFrom('=', '!~'), value: text }) },
  fc.record({ label: jsonValue, value: jsonValue }, { requiredKeys: [] }),
  jsonValue,
);

await onBothDatabases('silence_search_text', 'search-text', () => {
  it('computes what the SQL function computed, for any comment and matchers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(text, { nil: null }),
        fc.option(fc.array(matcher, { maxLength: 5 })),
        async (comment, matchers) => {
          const values = [comment, matchers === null ? null : JSON.stringify(matchers)];
          const [row] = await runStatement<{ now: string | null; before: string | null }>(
            `select silence_search_text($1::text, $2::jsonb) as now, ${REFERENCE} as before`,
            values,
          );
          expect(row.now).toBe(row.before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is the function the stored column is computed by, in PL/pgSQL', async () => {
    const rows = await runStatement<{ language: string; volatility: string }>(
      `select l.lanname as language, p.provolatile as volatility
         from pg_proc p join pg_language l on l.oid = p.prolang where p.proname = 'silence_search_text'`,
      [],
    );
    expect(rows).toEqual([{ language: 'plpgsql', volatility: 'i' }]);
  });

  it("keeps an edit's trigrams in a pending list of 64 kB, which the searches read", async () => {
    const [index] = await runStatement<{ options: string[] }>(
      `select reloptions as options from pg_class where relname = 'silences_search_text_idx'`,
      [],
    );
    expect([...index.options].sort()).toEqual(['fastupdate=on', 'gin_pending_list_limit=64']);
  });
});
