import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { KEY_SEARCH_WALK } from '../api-keys/keys';
import { listApiKeys } from '../api-keys/list-service';
import { SILENCE_SEARCH_WALK } from '../silences/keys';
import { listSilences } from '../silences/list-service';
import type { SilenceState } from '../silences/schema';
import { bulkInsertApiKeys, bulkInsertSilences } from '../../server/demo/bulk-seed';
import { getDb } from './client';
import * as t from './schema';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';

// More rows than each walk examines, so pages come from the walk, from the search indexes after it, and (for a
// one- or two-character q) stop at the walk's end.
const KEYS = KEY_SEARCH_WALK * 2 + 300;
const SILENCES = SILENCE_SEARCH_WALK * 3 + 100;
// A small alphabet, so a short q matches many rows; `_` and `%` are literal; "zanzibar" is rare.
const ALPHABET = ['a', 'b', 'A', ' ', '_', '%', 's'];
const word = (random: () => number, length: number) =>
  Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');

/** A seeded pseudo-random sequence, so a failure replays. */
function sequence(seed: number) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

type Listed = { id: string; createdAt: string };
const newestFirst = (a: Listed, b: Listed) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

/** Every page from the first to the last; each page holds at most `limit` items. */
async function pageThrough<T>(
  page: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>,
  limit: number,
) {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    expect(next.items.length).toBeLessThanOrEqual(limit);
    pages.push(next.items);
    cursor = next.nextCursor ?? undefined;
    if (pages.length > 5000) throw new Error('paging does not end');
  } while (cursor);
  return pages;
}

const query = fc.oneof(
  fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 4 }).map((chars) => chars.join('')),
  fc.constantFrom('zanzibar', 'ZANZ', 'bar 1', 'svc_', 'sv', 'no such text'),
);

function searchSuite() {
  let scope: { organizationId: string; projectId: string };
  const alice = { type: 'user' as const, id: crypto.randomUUID() };
  const bob = { type: 'bot' as const, id: crypto.randomUUID() };

  beforeAll(async () => {
    const db = await getDb();
    ({ scope } = await newTestProject('Search'));
    // Named owners, so a found key's owner name can be compared with the list's.
    await db.insert(t.users).values({ id: alice.id, email: `alice-${alice.id}@search.test`, name: 'Alice Search' });
    await db.insert(t.bots).values({ id: bob.id, organizationId: scope.organizationId, name: 'bob-search-bot' });
    const random = sequence(42);
    const name = (i: number) => (i % 97 === 0 ? `zanzibar ${i}` : word(random, 2 + (i % 6)));
    // Interleaved owners, one second apart each: both owners' keys spread over the whole list.
    await bulkInsertApiKeys(db, scope.organizationId, alice, KEYS / 2, name, Date.now());
    await bulkInsertApiKeys(db, scope.organizationId, bob, KEYS / 2, name, Date.now() - 500);
    await bulkInsertSilences(db, scope, bob, SILENCES, (i) => ({
      comment: i % 89 === 0 ? `zanzibar ${i}` : word(random, 1 + (i % 5)),
      matchers: [{ label: word(random, 2), op: '=', value: i % 7 === 0 ? 'ZanziBar' : word(random, 3) }],
      ended: i % 3 !== 0,
    }));
  }, 120_000);

  it('pages of keys found by q are the filtered, sorted keys, each exactly once, whatever the q, limit and owner', async () => {
    const db = await getDb();
    const keys = await db.select().from(t.apiKeys).where(eq(t.apiKeys.organizationId, scope.organizationId));
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 1, max: 100 }), fc.boolean(), async (q, limit, onlyAlice) => {
        const expected = keys
          .filter((k) => !onlyAlice || k.ownerId === alice.id)
          .filter((k) => k.name.toLowerCase().includes(q.toLowerCase()) || k.prefix.startsWith(q))
          .map((k) => ({ id: k.id, createdAt: k.createdAt.toISOString() }))
          .sort(newestFirst);
        const pages = await pageThrough(
          (cursor) => listApiKeys(scope.organizationId, onlyAlice ? alice : null, { limit, cursor, q }),
          limit,
        );
        expect(pages.flat().map((k) => k.id)).toEqual(expected.map((k) => k.id));
        // From three characters the search indexes complete every page: only the last is short.
        if ([...q].length >= 3) expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('a key found by q reads as the plain list reads it, its owner named, a user or a bot', async () => {
    const listed = new Map(
      (await pageThrough((cursor) => listApiKeys(scope.organizationId, null, { limit: 100, cursor }), 100))
        .flat()
        .map((k) => [k.id, k]),
    );
    const found = (await listApiKeys(scope.organizationId, null, { limit: 100, q: 'zanzibar' })).items;
    expect(new Set(found.map((k) => k.owner.name))).toEqual(new Set(['Alice Search', 'bob-search-bot']));
    for (const key of found) expect(key).toEqual(listed.get(key.id));
  });

  it('pages of silences found by q are the filtered, sorted silences, each exactly once, in every state', async () => {
    const db = await getDb();
    const silences = await db.select().from(t.silences).where(eq(t.silences.projectId, scope.projectId));
    const now = new Date();
    const state = (s: (typeof silences)[number]): SilenceState =>
      s.startsAt > now ? 'scheduled' : s.endsAt > now ? 'active' : 'expired';
    const text = (s: (typeof silences)[number]) =>
      [s.comment, ...s.matchers.flatMap((m) => [m.label, m.value])].join('\n').toLowerCase();
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(undefined, 'active', 'expired' as const),
        async (q, limit, wanted) => {
          const expected = silences
            .filter((s) => !wanted || state(s) === wanted)
            .filter((s) => text(s).includes(q.toLowerCase()))
            .map((s) => ({ id: s.id, createdAt: s.createdAt.toISOString() }))
            .sort(newestFirst);
          const pages = await pageThrough(
            (cursor) => listSilences(scope, { limit, cursor, q, state: wanted }, now),
            limit,
          );
          expect(pages.flat().map((s) => s.id)).toEqual(expected.map((s) => s.id));
          if ([...q].length >= 3) expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a one-character q that the walk does not find answers an empty page that pages on, not a sort of every key', async () => {
    const first = await listApiKeys(scope.organizationId, null, { limit: 10, q: '~' });
    // The newest keys hold no "~": the walk ends its bound empty-handed and says where to resume.
    expect(first.items).toEqual([]);
    expect(first.nextCursor).not.toBeNull();
    const pages = await pageThrough(
      (cursor) => listApiKeys(scope.organizationId, null, { limit: 10, cursor, q: '~' }),
      10,
    );
    expect(pages.flat()).toEqual([]);
    expect(pages.length).toBe(Math.ceil(KEYS / KEY_SEARCH_WALK));
  });
}

await onBothDatabases('search', 'search', searchSuite);
