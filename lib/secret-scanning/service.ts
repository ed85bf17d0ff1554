import { and, inArray, isNull, sql } from 'drizzle-orm';
import { recordAuditEvents } from '../audit/record';
import { credentialLabel } from '../audit/source';
import type { AuditEventInput, AuditSource } from '../db/audit-types';
import { sha256Hex } from '../auth/api-key-format';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { LeakReportAnswer, LeakReportItem } from './schema';
import { classifyToken, type CredentialKind } from './tokens';
import { notifyKeysLeaked, type LeakedKey } from '../notifications/key-notices';
import { queryRows } from '../db/statement';

/**
 * A partner's report: every token is answered (true_positive for any credential this service ever issued,
 * revoked or not); live ones are revoked at once, in one transaction with their audit events (reason
 * `leaked`, the url in the event's context). Tokens without a credential's shape or checksum are answered
 * without any database work, and the lookups are one query per credential kind, whatever the batch size.
 */
export async function handleLeakReport(
  items: LeakReportItem[],
  source: AuditSource,
  now = new Date(),
): Promise<LeakReportAnswer> {
  const classified = items.map((item) => ({ item, token: classifyToken(item.token) }));
  const urlOf = new Map<string, string>();
  const byKind = new Map<CredentialKind, string[]>();
  for (const { item, token } of classified) {
    if (!token || urlOf.has(token.hash)) continue;
    urlOf.set(token.hash, item.url);
    byKind.set(token.kind, [...(byKind.get(token.kind) ?? []), token.hash]);
  }
  const found = urlOf.size === 0 ? null : await revokeLeaked(byKind, urlOf, source, now);
  return classified.map(({ item, token }) => ({
    token_hash: token?.hash ?? sha256Hex(item.token),
    token_type: item.type,
    label: token && found?.has(token.hash) ? 'true_positive' : 'false_positive',
  }));
}

async function revokeLeaked(
  byKind: Map<CredentialKind, string[]>,
  urlOf: Map<string, string>,
  source: AuditSource,
  now: Date,
): Promise<Set<string>> {
  const db = await getDb();
  const apiKeyHashes = byKind.get('api_key') ?? [];
  const oauthHashes = [...(byKind.get('oauth_access_token') ?? []), ...(byKind.get('oauth_refresh_token') ?? [])];
  const scimHashes = byKind.get('scim_token') ?? [];
  const result = await db.transaction(async (tx) => {
    const events: AuditEventInput[] = [];
    const event = (e: Omit<AuditEventInput, 'actor' | 'context'>, url: string | undefined) => ({
      ...e,
      actor: source.actor,
      context: { ...source.context, url: url ?? null },
    });
    const hashes = new Set<string>();

    const keys = apiKeyHashes.length
      ? await tx
          .select({ id: t.apiKeys.id, hash: t.apiKeys.secretHash, revokedAt: t.apiKeys.revokedAt })
          .from(t.apiKeys)
          .where(inArray(t.apiKeys.secretHash, apiKeyHashes))
      : [];
    for (const k of keys) hashes.add(k.hash);
    const liveKeys = keys.filter((k) => !k.revokedAt);
    const revokedKeys = await revokeApiKeys(tx, liveKeys, urlOf, now);
    await notifyKeysLeaked(
      tx,
      revokedKeys.map((k) => ({ ...k, url: urlOf.get(k.hash) ?? null })),
      now,
    );
    for (const k of revokedKeys)
      events.push(
        event(
          {
            organizationId: k.organizationId,
            action: 'api_key.revoked',
            target: { type: 'api_key', id: k.id, name: k.name },
            reason: 'leaked',
          },
          urlOf.get(k.hash),
        ),
      );

    const tokens = oauthHashes.length
      ? await tx
          .select({ hash: t.oauthTokens.tokenHash, grantId: t.oauthTokens.grantId, revokedAt: t.oauthTokens.revokedAt })
          .from(t.oauthTokens)
          .where(inArray(t.oauthTokens.tokenHash, oauthHashes))
      : [];
    for (const tok of tokens) hashes.add(tok.hash);
    const liveGrants = new Map(tokens.filter((tok) => !tok.revokedAt).map((tok) => [tok.grantId, tok.hash]));
    if (liveGrants.size > 0) {
      // Either token of a login revokes both, as RFC 7009 revocation does.
      const revoked = await tx
        .update(t.oauthTokens)
        .set({ revokedAt: now })
        .where(and(inArray(t.oauthTokens.grantId, [...liveGrants.keys()]), isNull(t.oauthTokens.revokedAt)))
        .returning({ grantId: t.oauthTokens.grantId, userId: t.oauthTokens.userId, clientId: t.oauthTokens.clientId });
      const grants = new Map(revoked.map((r) => [r.grantId, r]));
      const users = [...new Set(revoked.map((r) => r.userId))];
      const memberships = users.length
        ? await tx
            .select({ userId: t.memberships.userId, organizationId: t.memberships.organizationId })
            .from(t.memberships)
            .where(inArray(t.memberships.userId, users))
        : [];
      for (const grant of grants.values())
        for (const m of memberships.filter((m) => m.userId === grant.userId))
          events.push(
            event(
              {
                organizationId: m.organizationId,
                action: 'oauth_login.revoked',
                target: { type: 'oauth_login', id: grant.grantId, name: grant.clientId },
                reason: 'leaked',
              },
              urlOf.get(liveGrants.get(grant.grantId)!),
            ),
          );
    }

    const scim = scimHashes.length
      ? await tx
          .select({ id: t.scimTokens.id, hash: t.scimTokens.tokenHash, revokedAt: t.scimTokens.revokedAt })
          .from(t.scimTokens)
          .where(inArray(t.scimTokens.tokenHash, scimHashes))
      : [];
    for (const s of scim) hashes.add(s.hash);
    const liveScim = scim.filter((s) => !s.revokedAt).map((s) => s.id);
    if (liveScim.length > 0) {
      const revoked = await tx
        .update(t.scimTokens)
        .set({ revokedAt: now })
        .where(and(inArray(t.scimTokens.id, liveScim), isNull(t.scimTokens.revokedAt)))
        .returning({
          id: t.scimTokens.id,
          hash: t.scimTokens.tokenHash,
          prefix: t.scimTokens.prefix,
          organizationId: t.scimTokens.organizationId,
        });
      for (const s of revoked)
        events.push(
          event(
            {
              organizationId: s.organizationId,
              action: 'scim_token.revoked',
              target: { type: 'scim_token', id: s.id, name: credentialLabel(s.prefix) },
              reason: 'leaked',
            },
            urlOf.get(s.hash),
          ),
        );
    }

    // Revoked credentials are refused on their very next request, on every instance: the epoch commits with them.
    if (events.length > 0) await bumpAuthEpoch(tx);
    await recordAuditEvents(tx, events, now);
    return { hashes, revokedSomething: events.length > 0 };
  });
  if (result.revokedSomething) invalidateAuthCaches();
  return result.hashes;
}

/** One UPDATE for every live leaked key, each with the url it was found at (the owner's notice shows it). */
async function revokeApiKeys(
  tx: DbOrTx,
  keys: { id: string; hash: string }[],
  urlOf: Map<string, string>,
  now: Date,
): Promise<LeakedKey[]> {
  if (keys.length === 0) return [];
  const values = sql.join(
    keys.map((k) => sql`(${k.id}::uuid, ${urlOf.get(k.hash) ?? null}::text)`),
    sql`, `,
  );
  const at = now.toISOString();
  return queryRows<LeakedKey>(
    tx,
    sql`
    update ${t.apiKeys} set revoked_at = ${at}::timestamptz, revoked_reason = 'leaked',
      leaked_at = ${at}::timestamptz, leak_url = v.url
    from (values ${values}) as v(id, url)
    where ${t.apiKeys.id} = v.id and ${t.apiKeys.revokedAt} is null
    returning ${t.apiKeys.id} as id, ${t.apiKeys.secretHash} as hash, ${t.apiKeys.name} as name,
      ${t.apiKeys.organizationId} as "organizationId", ${t.apiKeys.prefix} as prefix,
      ${t.apiKeys.ownerType} as "ownerType", ${t.apiKeys.ownerId} as "ownerId"`,
  );
}
