import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { chainHash, type HashedEvent } from '../../lib/audit/chain';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';
import { newSlug } from '../../lib/slug';
import type { Db } from '../../lib/db/client';
import * as t from '../../lib/db/schema';

/**
 * Large organizations straight into the database, for the scale tests and `npm run bench:scale`, never
 * through HTTP: one statement per 5,000 rows, each column sent as one array parameter and spread by unnest().
 */
const CHUNK = 5_000;
const SECOND = 1_000;

type Column = readonly [name: string, type: string];

/** Inserts `count` rows built by `row(i)` (0 the oldest) into `table`, a chunk per statement. */
async function insertColumns(
  db: Db,
  table: string,
  columns: readonly Column[],
  count: number,
  row: (i: number) => unknown[],
) {
  const names = sql.raw(columns.map(([name]) => name).join(', '));
  for (let from = 0; from < count; from += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - from) }, (_, k) => row(from + k));
    const arrays = columns.map(([, type], c) => sql`${sql.param(rows.map((r) => r[c]))}::${sql.raw(type)}[]`);
    await db.execute(sql`insert into ${sql.raw(table)} (${names}) select * from unnest(${sql.join(arrays, sql`, `)})`);
  }
}

type Owner = { type: 'user' | 'bot'; id: string };
const at = (now: number, count: number, i: number) => new Date(now - (count - i) * SECOND).toISOString();

const KEY_COLUMNS = [
  ['organization_id', 'uuid'],
  ['name', 'text'],
  ['prefix', 'text'],
  ['secret_hash', 'text'],
  ['owner_type', 'text'],
  ['owner_id', 'uuid'],
  ['created_at', 'timestamptz'],
] as const;

/** `count` live keys of one owner, one a second apart ending now; `name(i)` names the i-th (0 the oldest). */
export async function bulkInsertApiKeys(
  db: Db,
  organizationId: string,
  owner: Owner,
  count: number,
  name: (i: number) => string = (i) => `pipeline ${i}`,
  now = Date.now(),
): Promise<void> {
  await insertColumns(db, 'api_keys', KEY_COLUMNS, count, (i) => {
    const secret = generateApiKey();
    return [organizationId, name(i), displayPrefix(secret), sha256Hex(secret), owner.type, owner.id, at(now, count, i)];
  });
}

type SilenceSeed = { comment: string; matchers: { label: string; op: '='; value: string }[]; ended: boolean };

const SILENCE_COLUMNS = [
  ['organization_id', 'uuid'],
  ['project_id', 'uuid'],
  ['slug', 'text'],
  ['comment', 'text'],
  ['matchers', 'jsonb'],
  ['starts_at', 'timestamptz'],
  ['ends_at', 'timestamptz'],
  ['created_by_type', 'text'],
  ['created_by_id', 'uuid'],
  ['updated_by_type', 'text'],
  ['updated_by_id', 'uuid'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
] as const;

/** `count` silences of one project, one a second apart ending now; `seed(i)` says what the i-th holds. */
export async function bulkInsertSilences(
  db: Db,
  scope: { organizationId: string; projectId: string },
  author: Owner,
  count: number,
  seed: (i: number) => SilenceSeed,
  now = Date.now(),
): Promise<void> {
  await insertColumns(db, 'silences', SILENCE_COLUMNS, count, (i) => {
    const { comment, matchers, ended } = seed(i);
    const createdAt = at(now, count, i);
    const endsAt = new Date(ended ? Date.parse(createdAt) + SECOND : now + 86_400 * SECOND).toISOString();
    const by = [author.type, author.id];
    const row = [scope.organizationId, scope.projectId, newSlug('sil'), comment, JSON.stringify(matchers)];
    return [...row, createdAt, endsAt, ...by, ...by, createdAt, createdAt];
  });
}

const AUDIT_COLUMNS = [
  ['id', 'uuid'],
  ['organization_id', 'uuid'],
  ['seq', 'bigint'],
  ['occurred_at', 'timestamptz'],
  ['action', 'text'],
  ['actor', 'jsonb'],
  ['target', 'jsonb'],
  ['changes', 'jsonb'],
  ['project_id', 'uuid'],
  ['reason', 'text'],
  ['context', 'jsonb'],
  ['hash', 'text'],
] as const;

/**
 * Appends `count` events to the organization's chain with the hashes `recordAuditEvent` would write
 * (lib/audit/chain.ts), and moves its head: verification passes over them as over any other.
 */
export async function bulkAppendAuditEvents(db: Db, organizationId: string, count: number, now = Date.now()) {
  const [head] = await db.select().from(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, organizationId));
  let seq = head?.seq ?? 0;
  let previous = head?.hash ?? '';
  const actor = {
    type: 'bot' as const,
    id: randomUUID(),
    name: 'deployer',
    via: 'api_key' as const,
    credential: 'svc_AbCd…',
  };
  await insertColumns(db, 'audit_events', AUDIT_COLUMNS, count, (i) => {
    seq += 1;
    const event: HashedEvent = {
      id: randomUUID(),
      organizationId,
      seq,
      occurredAt: at(now, count, i),
      action: 'silence.created',
      actor,
      target: { type: 'silence', id: randomUUID(), name: `sil_${seq}` },
      projectId: null,
      changes: [],
      reason: null,
      context: { requestId: `req_${seq}`, ip: '198.51.100.7', userAgent: 'svc-deployer/2.4' },
    };
    previous = chainHash(previous, event);
    const json = [event.actor, event.target, event.changes].map((v) => JSON.stringify(v));
    const { id, occurredAt, action, projectId, reason, context } = event;
    return [id, organizationId, seq, occurredAt, action, ...json, projectId, reason, JSON.stringify(context), previous];
  });
  await db
    .insert(t.auditChainHeads)
    .values({ organizationId, seq, hash: previous })
    .onConflictDoUpdate({ target: t.auditChainHeads.organizationId, set: { seq, hash: previous } });
}

/** Planner statistics for what was just inserted (PGlite has no autovacuum to gather them). */
export async function analyzeSeeded(db: Db): Promise<void> {
  await db.execute(sql`analyze api_keys, silences, audit_events, subscriptions, bots, memberships`);
}
