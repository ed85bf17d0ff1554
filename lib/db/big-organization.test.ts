import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { listApiKeys } from '../api-keys/list-service';
import { listBots } from '../bots/service';
import { encodeCursor } from '../http/pagination';
import { listMembers } from '../members/service';
import { countSilences, listSilences } from '../silences/list-service';
import { listSubscriptions } from '../subscriptions/service';
import { analyzeSeeded, bulkInsertApiKeys, bulkInsertSilences } from '../../server/demo/bulk-seed';
import { getDb } from './client';
import { inputNodes, planNodes, planOf, type PlanNode } from './list-plans';
import { queueValues, subscriptionValues } from '../../server/demo/seed';
import * as t from './schema';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';

// Modest sizes, big enough that the planner prefers an index and a deep page is far from the first.
const KEYS = 3_000;
const SILENCES = 3_000;
const OTHERS = 600;
const alice = { type: 'user' as const, id: crypto.randomUUID() };
// Bob's keys are few among Alice's: the owner filter has its own index.
const bob = { type: 'user' as const, id: crypto.randomUUID() };
const BOBS = 200;

const names = (plan: PlanNode) => JSON.stringify(planNodes(plan).map((n) => [n['Node Type'], n['Index Name']]));
const usesIndex = (plan: PlanNode, index: string | RegExp) =>
  planNodes(plan).some((n) =>
    typeof index === 'string' ? n['Index Name'] === index : index.test(n['Index Name'] ?? ''),
  );

/**
 * The index scan that serves a deep page: its range holds the keyset's row comparison, and nothing between it
 * and the LIMIT sorts (ordering the page's few rows after the LIMIT, as the keys' owner join does, is free).
 */
function expectKeysetRange(plan: PlanNode, index: string) {
  const limit = planNodes(plan).find((n) => n['Node Type'] === 'Limit');
  const below = limit ? planNodes(limit) : [];
  const scan = below.find((n) => n['Index Name'] === index);
  expect(scan, names(plan)).toBeDefined();
  expect(scan?.['Index Cond']).toMatch(/ROW\(/);
  expect(
    below.map((n) => n['Node Type']),
    names(plan),
  ).not.toContain('Sort');
}

function bigOrganizationSuite() {
  let scope: { organizationId: string; projectId: string };
  let other: { organizationId: string; projectId: string };

  beforeAll(async () => {
    const db = await getDb();
    ({ scope } = await newTestProject('Big'));
    ({ scope: other } = await newTestProject('Other'));
    await bulkInsertApiKeys(db, scope.organizationId, bob, BOBS, (i) => `bob ${i}`);
    await bulkInsertApiKeys(db, scope.organizationId, alice, KEYS, (i) =>
      i === 7 ? 'Leaked DEPLOY key' : `pipeline ${i}`,
    );
    await bulkInsertApiKeys(db, other.organizationId, bob, 5, () => 'Leaked deploy key');
    await bulkInsertSilences(db, scope, bob, SILENCES, (i) => ({
      comment: i === 1 ? 'Rollout of Checkout-7' : `rollout ${i}`,
      matchers: [{ label: i === 2 ? 'Cluster_Zone' : 'service', op: '=', value: i === 3 ? 'payments-db' : `svc-${i}` }],
      ended: i >= 10,
    }));
    await bulkInsertSilences(db, other, bob, 3, () => ({
      comment: 'Rollout of Checkout-7',
      matchers: [{ label: 'service', op: '=', value: 'payments-db' }],
      ended: false,
    }));
    const created = (i: number) => new Date(Date.now() - (OTHERS - i) * 1000);
    const [queue] = await db.insert(t.queues).values(queueValues(scope, 'orders')).returning();
    await db
      .insert(t.subscriptions)
      .values(
        Array.from({ length: OTHERS }, (_, i) =>
          subscriptionValues({ ...scope, queueId: queue.id }, { createdAt: created(i) }),
        ),
      );
    await db.insert(t.bots).values(
      Array.from({ length: OTHERS }, (_, i) => ({
        organizationId: scope.organizationId,
        name: `bot-${i}`,
        createdAt: created(i),
      })),
    );
    const users = await db
      .insert(t.users)
      .values(Array.from({ length: OTHERS }, (_, i) => ({ email: `${crypto.randomUUID()}@big.test`, name: `u${i}` })))
      .returning({ id: t.users.id });
    await db
      .insert(t.memberships)
      .values(users.map((u, i) => ({ organizationId: scope.organizationId, userId: u.id, joinedAt: created(i) })));
    await analyzeSeeded(db);
  }, 120_000);

  // A position near the end of each list: its last rows, as a client paging there would hold.
  const deep = (at: Date) => encodeCursor({ at, id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' });
  const early = new Date(Date.now() - 3_600_000 * 10);

  it('a deep page of every list is an index range, not a scan up to its depth', async () => {
    const page = { limit: 50, cursor: deep(new Date(Date.now() - (KEYS - 100) * 1000)) };
    const bobsPage = { limit: 50, cursor: deep(new Date(Date.now() - (BOBS - 100) * 1000)) };
    expectKeysetRange(
      await planOf('api_keys', () => listApiKeys(scope.organizationId, null, page)),
      'api_keys_org_list_idx',
    );
    expectKeysetRange(
      await planOf('api_keys', () => listApiKeys(scope.organizationId, bob, bobsPage)),
      'api_keys_owner_list_idx',
    );
    expectKeysetRange(await planOf('silences', () => listSilences(scope, page)), 'silences_project_idx');
    const ascending = { limit: 50, cursor: deep(early) };
    expectKeysetRange(
      await planOf('subscriptions', () => listSubscriptions(scope, ascending)),
      'subscriptions_project_idx',
    );
    expectKeysetRange(await planOf('bots', () => listBots(scope.organizationId, ascending)), 'bots_org_idx');
    expectKeysetRange(
      await planOf('memberships', () => listMembers(scope.organizationId, ascending)),
      'memberships_org_joined_idx',
    );
  });

  it('paging through every key returns each exactly once, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listApiKeys(scope.organizationId, null, { limit: 100, cursor });
      seen.push(...page.items.map((k) => k.createdAt + k.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(KEYS + BOBS);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('state=active and the counts read the silences that have not ended, not the expired ones', async () => {
    const active = await listSilences(scope, { limit: 50, state: 'active' });
    expect(active.items).toHaveLength(10);
    expect(await countSilences(scope)).toEqual({ scheduled: 0, active: 10, expired: SILENCES - 10 });
    // Whatever the planner believes (at 100,000 rows it expected to fill the page early in a walk of the
    // created_at index, and read every expired silence), only the not-ended range of the ends_at index is read.
    for (const state of ['active', 'scheduled'] as const) {
      for (const withoutSort of [false, true]) {
        const plan = await planOf('silences', () => listSilences(scope, { limit: 50, state }), { withoutSort });
        expect(usesIndex(plan, 'silences_project_ends_idx'), names(plan)).toBe(true);
        expect(usesIndex(plan, 'silences_project_idx'), names(plan)).toBe(false);
      }
    }
    // The counts read the 10 not-ended rows; the expired ones are the project's total minus those.
    const counted = await planOf('silences', () => countSilences(scope), { limited: false, analyze: true });
    const read = planNodes(counted)
      .filter((n) => n['Relation Name'] === 'silences')
      .reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0);
    expect(read, names(counted)).toBe(10);
  });

  it('q finds the one key among thousands by any part of its name, in any case, or by its prefix', async () => {
    const [leaked] = await (await getDb()).select().from(t.apiKeys).where(eq(t.apiKeys.name, 'Leaked DEPLOY key'));
    for (const q of ['leaked deploy', 'DEPLOY KEY', 'aked dep', leaked.prefix, leaked.prefix.slice(0, 6)]) {
      const page = await listApiKeys(scope.organizationId, null, { limit: 50, q });
      expect(
        page.items.map((k) => k.id),
        q,
      ).toContain(leaked.id);
      expect(page.items.every((k) => k.prefix.startsWith(q) || k.name.toLowerCase().includes(q.toLowerCase()))).toBe(
        true,
      );
    }
    const exact = await listApiKeys(scope.organizationId, null, { limit: 50, q: 'leaked deploy' });
    expect(exact.items.map((k) => k.id)).toEqual([leaked.id]);
    expect(
      (await listApiKeys(scope.organizationId, null, { limit: 50, q: leaked.prefix.toLowerCase() + 'zz' })).items,
    ).toEqual([]);
    // At this size a scan of the organization's keys is cheaper; bench:scale shows the trigram index at 100k.
  });

  it('q on keys pages like the list, within the filters', async () => {
    const all = [];
    let cursor: string | undefined;
    do {
      const page = await listApiKeys(scope.organizationId, alice, { limit: 40, cursor, q: 'pipeline 1' });
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    // "pipeline 1", "pipeline 10".."19", "pipeline 100".."199", "pipeline 1000".."1999".
    expect(all).toHaveLength(1 + 10 + 100 + 1000);
    expect(new Set(all.map((k) => k.id)).size).toBe(all.length);
  });

  it('q finds a silence by a part of its comment, a matcher label or value, within state and project', async () => {
    const find = async (q: string, state?: 'active' | 'expired') =>
      (await listSilences(scope, { limit: 50, q, state })).items.map((s) => s.comment);
    expect(await find('checkout-7')).toEqual(['Rollout of Checkout-7']);
    expect(await find('cluster_zone')).toEqual(['rollout 2']);
    expect(await find('PAYMENTS-DB')).toEqual(['rollout 3']);
    expect(await find('checkout-7', 'expired')).toEqual([]);
    const tenths = Array.from({ length: 10 }, (_, i) => `rollout 299${9 - i}`);
    expect(await find('rollout 299', 'expired')).toEqual([...tenths, 'rollout 299']);
    expect(await find('checkout-7', 'active')).toEqual(['Rollout of Checkout-7']);
    const plan = await planOf('silences', () => listSilences(scope, { limit: 50, q: 'payments-db' }), {
      withoutSeqScan: true,
    });
    expect(usesIndex(plan, 'silences_search_text_idx'), names(plan)).toBe(true);
  });

  it('q (and the first page without it) plans a walk of the ordered index, then the search indexes; nothing sorts the table', async () => {
    // A second organization seeded after the statistics were gathered: its rows have just arrived.
    const { scope: fresh } = await newTestProject('Fresh');
    const db = await getDb();
    await bulkInsertApiKeys(db, fresh.organizationId, alice, KEYS, (i) =>
      i === 7 ? 'Leaked DEPLOY key' : `deploy ${i}`,
    );
    await bulkInsertSilences(db, fresh, bob, SILENCES, (i) => ({
      comment: `rollout ${i}`,
      matchers: [{ label: 'service', op: '=', value: i === 3 ? 'payments-db' : `svc-${i}` }],
      ended: true,
    }));
    for (const [where, label, keyName] of [
      [scope, 'analyzed', 'pipeline'],
      [fresh, 'just arrived', 'deploy'],
    ] as const) {
      const keys = (q: string) => () => listApiKeys(where.organizationId, null, { limit: 50, q });
      const silences = (q: string) => () => listSilences(where, { limit: 50, q });
      const listWalk = 'api_keys_org_list_idx';
      const projectWalk = 'silences_project_idx';
      // The prefix arm reads a prefix index as a range: `api_keys_prefix_idx`, or at this size, where it costs the
      // planner the same, the organization's (organization_id, prefix) one (kept for the previous release).
      const keyIndexes = ['api_keys_name_search_idx', /^api_keys_prefix(_search)?_idx$/];
      const silenceIndexes = ['silences_search_text_idx'];
      // [table, the walk's index, the search indexes, the search]
      for (const [table, walk, indexes, action] of [
        // A rare q, and a q of over a thousand matches none of which is among the newest: the walk, then the
        // search indexes beyond it, their candidates sorted.
        ['api_keys', listWalk, keyIndexes, keys('leaked deploy')],
        ['silences', projectWalk, silenceIndexes, silences('payments-db')],
        ['api_keys', listWalk, keyIndexes, keys(`${keyName} 1`)],
        ['silences', projectWalk, silenceIndexes, silences('rollout 1')],
        // Too short for trigrams: the walk alone.
        ['api_keys', listWalk, [], keys('l')],
        ['silences', projectWalk, [], silences('pa')],
        // The first pages without q, too: before statistics a planner may not expect the project to hold many.
        ['api_keys', listWalk, [], () => listApiKeys(where.organizationId, null, { limit: 50 })],
        ['silences', projectWalk, [], () => listSilences(where, { limit: 50 })],
      ] as const) {
        // As if the table were big: at this size reading it whole is cheaper, for the walk's index too.
        const plan = await planOf(table, action, { withoutSeqScan: true });
        const context = `${label}: ${names(plan)}`;
        const walked = planNodes(plan).find((n) => n['Node Type'] === 'Limit' && usesIndex(n, walk));
        expect(walked, context).toBeDefined();
        for (const index of indexes) expect(usesIndex(plan, index), `${index}: ${context}`).toBe(true);
        // Sorts order the page's rows and the few candidates the search indexes found, never rows of the table.
        const sorts = planNodes(plan).filter((n) => n['Node Type'] === 'Sort');
        expect(
          sorts.filter((sort) => inputNodes(sort, { throughLimit: false }).some((n) => n['Relation Name'] === table)),
          context,
        ).toEqual([]);
      }
    }
  });

  it('q is literal text: LIKE wildcards and the escape character match only themselves', async () => {
    const { scope: small } = await newTestProject('Wildcards');
    const names = ['100% done', 'a_b', 'back\\slash', 'plain'];
    await bulkInsertApiKeys(await getDb(), small.organizationId, bob, names.length, (i) => names[i]);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.nat(), fc.nat(), async (name, a, b) => {
        const [from, to] = [a % name.length, b % name.length].sort((x, y) => x - y);
        const q = name.slice(from, to + 1);
        const found = (await listApiKeys(small.organizationId, null, { limit: 50, q })).items;
        expect(found.map((k) => k.name)).toContain(name);
        expect(
          found.every((k) => k.prefix.startsWith(q) || k.name.toLowerCase().includes(q.toLowerCase())),
          `${q}: ${found.map((k) => k.name).join(', ')}`,
        ).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
}

await onBothDatabases('a big organization', 'big-organization', bigOrganizationSuite);
