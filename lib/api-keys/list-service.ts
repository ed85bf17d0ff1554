import { and, desc, eq, gt, ilike, isNull, like, lte, or, sql, type SQLWrapper } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { jsonRow, jsonRowsStatement } from '../db/statement';
import * as t from '../db/schema';
import {
  containsPattern,
  INDEXED_SEARCH_MIN,
  searchStatement,
  searchValue,
  startsWithPattern,
  startsWithRange,
} from '../db/search';
import type { KeyPolicy } from '../auth/key-scope';
import { beyondPosition, decodeCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import { EXPIRING_SOON_DAYS, type ApiKey } from './schema';
import { DAY_MS, toApiKey, type Owner } from './service';
import { KEY_SEARCH_WALK } from './keys';

/**
 * The page straight off the (organization, createdAt desc, id desc) index, and owner names for that page only:
 * joining before the LIMIT made PostgreSQL sort every key of the organization. One named statement per shape
 * (narrowed to an owner or not, after a cursor or not, expiring or not), so no condition is left to a generic plan.
 */
type ListShape = { byOwner: boolean; afterPosition: boolean; expiring: boolean };

type ListValueName = 'organizationId' | 'ownerType' | 'ownerId' | 'at' | 'id' | 'now' | 'soon';
type ListValue = (name: ListValueName) => SQLWrapper;

/** Each value's SQL type, for a search's statement (`searchValue`). */
const LIST_VALUE_TYPES: Record<ListValueName, string> = {
  organizationId: 'uuid',
  ownerType: 'text',
  ownerId: 'uuid',
  at: 'timestamptz',
  id: 'uuid',
  now: 'timestamptz',
  soon: 'timestamptz',
};

/** The list's conditions, over placeholders (its statements) or search values (its searches'), filled per call. */
function listWhere({ byOwner, afterPosition, expiring }: ListShape, value: ListValue = sql.placeholder) {
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

/**
 * The owner's name, read per row of the page: a scalar subquery in the select list runs only for the rows the
 * LIMIT lets through (PostgreSQL postpones such columns past a sort when there is a LIMIT).
 */
const ownerName = sql<string | null>`case ${t.apiKeys.ownerType}
  when 'user' then (select ${t.users.name} from ${t.users} where ${t.users.id} = ${t.apiKeys.ownerId})
  else (select ${t.bots.name} from ${t.bots} where ${t.bots.id} = ${t.apiKeys.ownerId}) end`;

/** A page's row, one JSON array each (lib/db/statement.ts). */
const listRow = jsonRow({
  id: t.apiKeys.id,
  name: t.apiKeys.name,
  prefix: t.apiKeys.prefix,
  ownerType: t.apiKeys.ownerType,
  ownerId: t.apiKeys.ownerId,
  createdAt: t.apiKeys.createdAt,
  expiresAt: t.apiKeys.expiresAt,
  lastUsedAt: t.apiKeys.lastUsedAt,
  rolledAt: t.apiKeys.rolledAt,
  stopsAt: t.apiKeys.stopsAt,
  permissions: t.apiKeys.permissions,
  projectIds: t.apiKeys.projectIds,
  allowedIps: t.apiKeys.allowedIps,
  ownerName,
  keyPolicy: keyPolicyOf(sql.placeholder('organizationId')),
});

function listStatement(shape: ListShape) {
  const query = new QueryBuilder()
    .select({ row: listRow.sql.as('row') })
    .from(t.apiKeys)
    .where(listWhere(shape))
    .orderBy(desc(t.apiKeys.createdAt), desc(t.apiKeys.id))
    .limit(sql.placeholder('limit'));
  return jsonRowsStatement(query, listRow);
}

const both = [false, true];
const listStatements = both.map((byOwner) =>
  both.map((afterPosition) => both.map((expiring) => listStatement({ byOwner, afterPosition, expiring }))),
);

/**
 * A search of the list (`searchStatement`, lib/db/search.ts) over the same conditions, its page read as the list's
 * rows are: name and prefix through their indexes (`q` of three characters or more), or the walk alone.
 */
function searchStatementOf(shape: ListShape, indexed: boolean) {
  const live = isNull(t.apiKeys.revokedAt);
  const contains = ilike(t.apiKeys.name, searchValue('contains'));
  const startsWith = like(t.apiKeys.prefix, searchValue('startsWith'));
  return searchStatement({
    table: t.apiKeys,
    where: listWhere(shape, (name) => searchValue(name, LIST_VALUE_TYPES[name])),
    match: or(contains, startsWith)!,
    // The trigram index on names and the prefix index, both over every organization's keys: each arm is then
    // the only index its condition fits, whatever the statistics say (`where` keeps this organization's).
    indexed: indexed
      ? [
          and(live, contains)!,
          // The range LIKE implies, spelled out, so the index serves it in a plan blind to `q`.
          and(live, startsWith, startsWithRange(t.apiKeys.prefix, 'q'))!,
        ]
      : null,
    walk: KEY_SEARCH_WALK,
    row: listRow,
  });
}

const searchStatements = both.map((byOwner) =>
  both.map((afterPosition) =>
    both.map((expiring) => both.map((indexed) => searchStatementOf({ byOwner, afterPosition, expiring }, indexed))),
  ),
);

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
    ? await searchStatements[+shape.byOwner][+shape.afterPosition][+shape.expiring][
        +([...page.q].length >= INDEXED_SEARCH_MIN)
      ]({
        ...values,
        q: page.q,
        contains: containsPattern(page.q),
        startsWith: startsWithPattern(page.q),
        limit: page.limit + 1,
      })
    : {
        rows: await listStatements[+shape.byOwner][+shape.afterPosition][+shape.expiring]({
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
