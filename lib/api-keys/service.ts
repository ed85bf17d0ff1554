import { and, desc, eq, gt, ilike, isNull, like, lte, or, sql, type SQLWrapper } from 'drizzle-orm';
import { getDb, preparedStatement, type Db, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { containsPattern, INDEXED_SEARCH_MIN, searchList, startsWithPattern } from '../db/search';
import { displayPrefix, generateApiKey, sha256Hex } from '../auth/api-key-format';
import type { Principal } from '../auth/principal';
import { ApiError, notFound } from '../errors';
import { beyondPosition, decodeCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import { KEY_SEARCH_WALK } from './keys';
import { EXPIRING_SOON_DAYS, type ApiKey, type CreatedApiKey } from './schema';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import { notifyKeyRevokedByOther } from '../notifications/key-notices';
import type { AuditEventInput, AuditSource } from '../db/audit-types';
import type { KeyPolicy, KeyRestrictions } from '../auth/key-scope';
import { checkedRestrictions, keyPolicyFor, restrictionChanges, restrictionView } from './restrictions';

export const DAY_MS = 86_400_000;

export type RevocationReason = NonNullable<(typeof t.apiKeys.$inferSelect)['revokedReason']>;
export type Owner = { type: 'user' | 'bot'; id: string };

export type KeyRow = Pick<
  typeof t.apiKeys.$inferSelect,
  | 'id'
  | 'name'
  | 'prefix'
  | 'ownerType'
  | 'ownerId'
  | 'createdAt'
  | 'expiresAt'
  | 'lastUsedAt'
  | 'rolledAt'
  | 'stopsAt'
  | 'permissions'
  | 'projectIds'
  | 'allowedIps'
> & {
  ownerName: string | null;
};

export function toApiKey(row: KeyRow, now: Date, policy: KeyPolicy | null): ApiKey {
  const expiresIn = row.expiresAt ? row.expiresAt.getTime() - now.getTime() : null;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    owner: { type: row.ownerType, id: row.ownerId, name: row.ownerName ?? '' },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expired: expiresIn !== null && expiresIn <= 0,
    expiringSoon: expiresIn !== null && expiresIn > 0 && expiresIn <= EXPIRING_SOON_DAYS * DAY_MS,
    rolledAt: row.rolledAt?.toISOString() ?? null,
    stopsAt: row.stopsAt?.toISOString() ?? null,
    ...restrictionView(row, policy),
  };
}

/**
 * Creates a key for the caller or for a live bot of the organization. The owner's row is locked for the
 * transaction, so a concurrent removal or bot deletion waits and then revokes this key too.
 */
export async function createApiKey(
  organizationId: string,
  creator: Principal,
  input: { name: string; expiresInDays?: number | null; botId?: string } & Partial<KeyRestrictions>,
  source: AuditSource,
  now = new Date(),
): Promise<CreatedApiKey> {
  const db = await getDb();
  const secret = generateApiKey();
  return db.transaction(async (tx) => {
    // 400 before the bot's 404, as the order of checks says.
    const policy = await keyPolicyFor(tx, organizationId);
    const restrictions = await checkedRestrictions(
      tx,
      organizationId,
      creator,
      input,
      input.expiresInDays ?? null,
      policy,
    );
    let owner: Owner & { name: string };
    if (input.botId) {
      const [bot] = await tx
        .select({ id: t.bots.id, name: t.bots.name })
        .from(t.bots)
        .where(and(eq(t.bots.id, input.botId), eq(t.bots.organizationId, organizationId), isNull(t.bots.deletedAt)))
        .for('update');
      if (!bot) throw notFound('No such bot in this organization.');
      owner = { type: 'bot', id: bot.id, name: bot.name };
    } else {
      const [member] = await tx
        .select({ userId: t.memberships.userId })
        .from(t.memberships)
        .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, creator.id)))
        .for('update');
      if (!member || creator.type !== 'user') throw new ApiError('access_denied');
      owner = { type: 'user', id: creator.id, name: creator.name };
    }
    const [row] = await tx
      .insert(t.apiKeys)
      .values({
        organizationId,
        name: input.name,
        prefix: displayPrefix(secret),
        secretHash: sha256Hex(secret),
        ownerType: owner.type,
        ownerId: owner.id,
        createdByUserId: creator.type === 'user' ? creator.id : null,
        createdAt: now,
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null,
        ...restrictions,
      })
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'api_key.created',
      target: apiKeyTarget(row),
      reason: owner.type === 'bot' ? `for bot ${owner.name}` : null,
      changes: restrictionChanges(null, restrictions),
    });
    return { apiKey: toApiKey({ ...row, ownerName: owner.name }, now, policy), secret };
  });
}

/**
 * The page first, straight off the (organization, createdAt desc, id desc) index, and owner names for that
 * page only: joining before the LIMIT made PostgreSQL sort every key of the organization. One prepared
 * statement per shape (narrowed to an owner or not, after a cursor or not), so no condition is left to
 * a generic plan.
 */
type ListShape = { byOwner: boolean; afterPosition: boolean; expiring: boolean };
type ListValueName = 'organizationId' | 'ownerType' | 'ownerId' | 'at' | 'id' | 'now' | 'soon';
type ListValue = (name: ListValueName) => SQLWrapper;

/** The list's conditions, over placeholders (the prepared statements) or values (a search). */
function listWhere({ byOwner, afterPosition, expiring }: ListShape, value: ListValue) {
  return and(
    eq(t.apiKeys.organizationId, value('organizationId')),
    isNull(t.apiKeys.revokedAt),
    byOwner ? and(eq(t.apiKeys.ownerType, value('ownerType')), eq(t.apiKeys.ownerId, value('ownerId'))) : undefined,
    // A rolled key past its stopsAt is gone even before housekeeping revokes it.
    or(isNull(t.apiKeys.stopsAt), gt(t.apiKeys.stopsAt, value('now'))),
    expiring ? and(gt(t.apiKeys.expiresAt, value('now')), lte(t.apiKeys.expiresAt, value('soon'))) : undefined,
    afterPosition
      ? beyondPosition(t.apiKeys.createdAt, t.apiKeys.id, 'desc', { at: value('at'), id: value('id') })
      : undefined,
  )!;
}

/** The organization's key policy, which each key is shown against: read once (an InitPlan), in the list's statement. */
const keyPolicyOf = (organizationId: unknown) =>
  sql<KeyPolicy | null>`(select ${t.organizations.keyPolicy} from ${t.organizations} where ${t.organizations.id} = ${organizationId})`;

function listQuery(db: Db, shape: ListShape) {
  const keys = db
    .select()
    .from(t.apiKeys)
    .where(listWhere(shape, sql.placeholder))
    .orderBy(desc(t.apiKeys.createdAt), desc(t.apiKeys.id))
    .limit(sql.placeholder('limit'))
    .as('k');
  return db
    .select({
      id: keys.id,
      name: keys.name,
      prefix: keys.prefix,
      ownerType: keys.ownerType,
      ownerId: keys.ownerId,
      createdAt: keys.createdAt,
      expiresAt: keys.expiresAt,
      lastUsedAt: keys.lastUsedAt,
      rolledAt: keys.rolledAt,
      stopsAt: keys.stopsAt,
      permissions: keys.permissions,
      projectIds: keys.projectIds,
      allowedIps: keys.allowedIps,
      ownerName: sql<string | null>`coalesce(${t.users.name}, ${t.bots.name})`,
      keyPolicy: keyPolicyOf(sql.placeholder('organizationId')),
    })
    .from(keys)
    .leftJoin(t.users, and(eq(keys.ownerType, 'user'), eq(t.users.id, keys.ownerId)))
    .leftJoin(t.bots, and(eq(keys.ownerType, 'bot'), eq(t.bots.id, keys.ownerId)))
    .orderBy(desc(keys.createdAt), desc(keys.id));
}

function listStatement(shape: ListShape) {
  const { byOwner, afterPosition, expiring } = shape;
  const name = `api_keys_list${byOwner ? '_owner' : ''}${afterPosition ? '_after' : ''}${expiring ? '_expiring' : ''}`;
  return preparedStatement((db) => listQuery(db, shape).prepare(name));
}

const both = [false, true];
const listStatements = both.map((byOwner) =>
  both.map((afterPosition) => both.map((expiring) => listStatement({ byOwner, afterPosition, expiring }))),
);

/** A search of the list: `searchList` (lib/db/search.ts) over the same conditions, owner names after the LIMIT. */
async function searchApiKeys(shape: ListShape, values: Record<ListValueName, unknown>, q: string, limit: number) {
  const contains = containsPattern(q);
  const live = isNull(t.apiKeys.revokedAt);
  return searchList(
    {
      table: t.apiKeys,
      where: listWhere(shape, (name) => sql`${values[name]}`),
      match: or(ilike(t.apiKeys.name, contains), like(t.apiKeys.prefix, startsWithPattern(q)))!,
      // The trigram index on names and the prefix index, both over every organization's keys: each arm is then
      // the only index its condition fits, whatever the statistics say (`where` keeps this organization's).
      indexed:
        [...q].length < INDEXED_SEARCH_MIN
          ? null
          : [
              and(live, ilike(t.apiKeys.name, contains))!,
              // The range LIKE implies, spelled out, so the index serves it even before statistics exist.
              and(live, like(t.apiKeys.prefix, startsWithPattern(q)), sql`${t.apiKeys.prefix} ~>=~ ${q}`)!,
            ],
      walk: KEY_SEARCH_WALK,
      limit,
      columns: sql`coalesce(${t.users.name}, ${t.bots.name}) as "owner_name", ${keyPolicyOf(values.organizationId)} as "key_policy"`,
      joins: sql`left join ${t.users} on ${t.apiKeys.ownerType} = 'user' and ${t.users.id} = ${t.apiKeys.ownerId}
        left join ${t.bots} on ${t.apiKeys.ownerType} = 'bot' and ${t.bots.id} = ${t.apiKeys.ownerId}`,
    },
    (raw) => ({ ownerName: raw.owner_name as string | null, keyPolicy: raw.key_policy as KeyPolicy | null }),
  );
}

/**
 * Unrevoked keys of the organization, newest first; `owner` narrows to one principal's keys, `expiring`
 * to keys expiring within 7 days, `q` to names containing it (any case) or prefixes starting with it.
 */
export async function listApiKeys(
  organizationId: string,
  owner: Owner | null,
  page: PageQuery & { expiring?: 'soon'; q?: string },
  now = new Date(),
): Promise<Page<ApiKey>> {
  const position = page.cursor ? decodeCursor(page.cursor) : null;
  const shape = { byOwner: !!owner, afterPosition: !!position, expiring: page.expiring === 'soon' };
  const values = {
    organizationId,
    ownerType: owner?.type,
    ownerId: owner?.id,
    at: position?.at.toISOString(),
    id: position?.id,
    now: now.toISOString(),
    soon: new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS).toISOString(),
  };
  const { rows, resumeAt } = page.q
    ? await searchApiKeys(shape, values, page.q, page.limit)
    : {
        rows: await (
          await listStatements[+shape.byOwner][+shape.afterPosition][+shape.expiring]()
        ).execute({
          ...values,
          limit: page.limit + 1,
        }),
        resumeAt: null,
      };
  const policy = rows[0]?.keyPolicy ?? null;
  return toPage(
    rows,
    page.limit,
    (r) => r.createdAt,
    (r) => toApiKey(r, now, policy),
    resumeAt,
  );
}

/** The owner of an unrevoked key of the organization, or null when there is none to revoke. */
export async function findApiKeyOwner(organizationId: string, keyId: string): Promise<Owner | null> {
  const db = await getDb();
  const [row] = await db
    .select({ type: t.apiKeys.ownerType, id: t.apiKeys.ownerId })
    .from(t.apiKeys)
    .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)));
  return row ?? null;
}

/** Revokes one key; 404 when it was revoked meanwhile, so two concurrent revokes cannot both succeed. */
export async function revokeApiKey(
  organizationId: string,
  keyId: string,
  by: Principal,
  source: AuditSource,
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const revoked = await tx
      .update(t.apiKeys)
      .set({ revokedAt: new Date(), revokedReason: 'revoked', revokedById: by.id })
      .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)))
      .returning(revokedKeyColumns);
    if (revoked.length === 0) throw notFound('No such API key.');
    await bumpAuthEpoch(tx);
    await notifyKeyRevokedByOther(tx, revoked[0], by);
    await recordAuditEvent(tx, keyRevokedEvent(revoked[0], 'revoked', source));
  });
  // The very next request with this key must be refused, even where it was cached.
  invalidateAuthCaches();
}

const revokedKeyColumns = {
  id: t.apiKeys.id,
  organizationId: t.apiKeys.organizationId,
  name: t.apiKeys.name,
  prefix: t.apiKeys.prefix,
  ownerType: t.apiKeys.ownerType,
  ownerId: t.apiKeys.ownerId,
};
export type RevokedKey = {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  ownerType: 'user' | 'bot';
  ownerId: string;
};

/** An API key as the target of an event: its name and display prefix, never its secret. */
export function apiKeyTarget(key: { id: string; name: string; prefix: string }) {
  return { type: 'api_key', id: key.id, name: `${key.name} (${key.prefix}…)` };
}

/** The `api_key.revoked` event of one key, with the cause as its reason. */
export function keyRevokedEvent(key: RevokedKey, reason: RevocationReason, source: AuditSource): AuditEventInput {
  return {
    ...source,
    organizationId: key.organizationId,
    action: 'api_key.revoked',
    target: apiKeyTarget(key),
    reason,
  };
}

/**
 * Revokes every live key of an owner, inside the caller's transaction (the cause of the revocation).
 * Without an organization, every key of the owner anywhere (a suspended user).
 */
export async function revokeKeysOf(
  tx: DbOrTx,
  owner: Owner,
  reason: RevocationReason,
  { organizationId, byId = null }: { organizationId?: string; byId?: string | null } = {},
): Promise<RevokedKey[]> {
  const revoked = await tx
    .update(t.apiKeys)
    .set({ revokedAt: new Date(), revokedReason: reason, revokedById: byId })
    .where(
      and(
        eq(t.apiKeys.ownerType, owner.type),
        eq(t.apiKeys.ownerId, owner.id),
        organizationId ? eq(t.apiKeys.organizationId, organizationId) : undefined,
        isNull(t.apiKeys.revokedAt),
      ),
    )
    .returning(revokedKeyColumns);
  return revoked;
}
