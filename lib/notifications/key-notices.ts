import type { DbOrTx } from '../db/client';
import { keyExpiringMessage, keyLeakedMessage, keyRevokedByOtherMessage } from './messages';
import { notifyUsers, organizationAdmins } from './service';

export type LeakedKey = {
  id: string;
  hash: string;
  name: string;
  prefix: string;
  organizationId: string;
  ownerType: 'user' | 'bot';
  ownerId: string;
};

/** A leak report revoked these keys: each key's owner (a user) and its organization's admins are told. */
export async function notifyKeysLeaked(
  tx: DbOrTx,
  keys: (LeakedKey & { url: string | null })[],
  now: Date,
): Promise<void> {
  const admins = new Map<string, string[]>();
  for (const key of keys) {
    if (!admins.has(key.organizationId))
      admins.set(key.organizationId, await organizationAdmins(tx, key.organizationId));
    const owner = key.ownerType === 'user' ? [key.ownerId] : [];
    await notifyUsers(
      tx,
      [...owner, ...admins.get(key.organizationId)!],
      key.organizationId,
      'key_leaked',
      keyLeakedMessage(key, key.url, now),
    );
  }
}

/** Someone other than its owner revoked a user's key: the owner is told who. */
export async function notifyKeyRevokedByOther(
  tx: DbOrTx,
  key: { name: string; prefix: string; organizationId: string; ownerType: 'user' | 'bot'; ownerId: string },
  by: { type: string; id: string; name: string },
): Promise<void> {
  if (key.ownerType !== 'user' || (by.type === 'user' && by.id === key.ownerId)) return;
  await notifyUsers(
    tx,
    [key.ownerId],
    key.organizationId,
    'key_revoked_by_other',
    keyRevokedByOtherMessage(key, by.name),
  );
}

/** The reminder of one key's coming expiry, to its owner. */
export async function notifyKeyExpiring(
  tx: DbOrTx,
  key: { name: string; prefix: string; organizationId: string; ownerId: string; expiresAt: Date },
  daysBefore: number,
): Promise<void> {
  await notifyUsers(
    tx,
    [key.ownerId],
    key.organizationId,
    'key_expiring',
    keyExpiringMessage(key, key.expiresAt, daysBefore),
  );
}
