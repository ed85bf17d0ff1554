import { missingIdMessage } from '../errors';
import type { OwnerRule } from '../pipeline/operation';
import { findLeakNoticeOwner } from './leak-service';
import { findApiKeyOwner } from './service';

// Who may act on a key depends on whose it is: the operations declare these rules, and the wrapper checks them
// once the request is valid (the key's 404, then the 403).

type KeyPath = { orgId: string; keyId: string };

const noKey = ({ keyId }: KeyPath) => missingIdMessage('API key', keyId);
const keyOwner = ({ params }: { params: KeyPath }) => findApiKeyOwner(params.orgId, params.keyId);

/** Reading a key's usage or access: its owner, or anyone who may list every key. */
export const readByOwnerOrLister: OwnerRule<KeyPath, unknown> = {
  find: keyOwner,
  missingFor: noKey,
  other: 'apiKeys.list',
};

/** Revoking a key: its owner (a key may revoke itself), or anyone with `apiKeys.delete`. */
export const revokedByOwnerOrDeleter: OwnerRule<KeyPath, unknown> = {
  find: keyOwner,
  missingFor: noKey,
  other: 'apiKeys.delete',
};

/** A new key: for the caller (`apiKeys.create`), or for the bot the body names (`bots.createApiKey`). */
export const createdForCallerOrBot: OwnerRule<unknown, { botId?: string }> = {
  find: async ({ body, principal }) =>
    body.botId ? { type: 'bot', id: body.botId } : { type: principal.type, id: principal.id },
  bot: 'bots.createApiKey',
  own: 'apiKeys.create',
  other: { refused: 'Nobody can create an API key for another user.' },
};

/** Changing or rolling a key is allowed as creating one for its owner; nobody acts on another user's. */
const asCreatingFor = (refused: string): OwnerRule<KeyPath, unknown> => ({
  find: keyOwner,
  missingFor: noKey,
  bot: 'bots.createApiKey',
  own: 'apiKeys.create',
  other: { refused },
});

export const changedAsCreating = asCreatingFor('Nobody can change another user’s API key.');

export const rolledAsCreating = asCreatingFor('Nobody can roll another user’s API key.');

/** Dismissing a leak notice: the key's owner, or anyone with `apiKeys.delete`. */
export const leakDismissedByOwnerOrDeleter: OwnerRule<KeyPath, unknown> = {
  find: ({ params }) => findLeakNoticeOwner(params.orgId, params.keyId),
  missing: 'No such leak notice.',
  other: 'apiKeys.delete',
};
