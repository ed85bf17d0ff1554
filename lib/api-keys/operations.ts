import { z } from 'zod';
import { ANY_CREDENTIAL, defineOperation, NOT_API_KEYS, type Operation } from '../pipeline/operation';
import { pageOf } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import {
  apiKey,
  apiKeyAccess,
  apiKeyLeak,
  apiKeyParams,
  apiKeyUsage,
  createApiKeyBody,
  createdApiKey,
  currentApiKey,
  leakParams,
  listApiKeysQuery,
  rollApiKeyBody,
  rolledApiKey,
} from './schema';
import { updateApiKeyBody } from '../auth/key-restriction-schema';
import {
  changedAsCreating,
  createdForCallerOrBot,
  leakDismissedByOwnerOrDeleter,
  readByOwnerOrLister,
  revokedByOwnerOrDeleter,
  rolledAsCreating,
} from './owner-rules';

/** What every operation on an organization's keys shares. */
const keysApi = { tags: ['API keys'], scope: 'organization' } satisfies Partial<Operation>;

/** Reading one key's access or usage: its owner, or anyone who may list every key. */
const SEEN_BY_LISTERS =
  'Seen by whoever may list the key: its owner, or anyone with `apiKeys.list` (else 403). Unknown or revoked: 404. ';

export const createApiKeyOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/api-keys',
  summary: 'Create an API key for yourself or for a bot',
  description:
    'A key for yourself needs `apiKeys.create`; a key for a bot (`botId`) needs `bots.createApiKey`. ' +
    'A request authenticated by an API key is refused (403). The full key is in this response only (`Cache-Control: no-store`).',
  ...keysApi,
  sudo: true,
  credentials: NOT_API_KEYS,
  params: orgParams,
  body: createApiKeyBody,
  owner: createdForCallerOrBot,
  anyPermission: ['apiKeys.create', 'bots.createApiKey'],
  credentialRefusal: 'API keys cannot create API keys.',
  success: {
    status: 201,
    description: 'The key and its secret, shown once.',
    schema: createdApiKey,
    headers: { 'Cache-Control': 'no-store' },
  },
});

export const listApiKeysOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/api-keys',
  summary: 'List API keys, newest first',
  description:
    'Without `apiKeys.list` only the caller’s own keys; with it, every key of the organization (`owner=me` narrows). Revoked keys are never listed.',
  ...keysApi,
  credentials: ANY_CREDENTIAL,
  self: { orPermission: 'apiKeys.list' },
  params: orgParams,
  query: listApiKeysQuery,
  success: {
    status: 200,
    description: 'A page of keys.',
    schema: pageOf(apiKey),
  },
  errors: ['invalid_cursor'],
});

export const revokeApiKeyOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/api-keys/{keyId}',
  summary: 'Revoke an API key',
  description:
    'Your own keys, or anyone’s with `apiKeys.delete`. Unknown, other organization’s or already revoked: 404. Cannot be undone.',
  ...keysApi,
  credentials: ANY_CREDENTIAL,
  self: { orPermission: 'apiKeys.delete', restrictedKeys: { ownKey: 'keyId' } },
  owner: revokedByOwnerOrDeleter,
  params: apiKeyParams,
  success: { status: 204, description: 'Revoked; the key stops working at once.' },
});

export const updateApiKeyOp = defineOperation({
  method: 'PATCH',
  path: '/v1/organizations/{orgId}/api-keys/{keyId}',
  summary: "Narrow or widen an API key's restrictions",
  description:
    'Allowed as creating a key for its owner: your own key (`apiKeys.create`) or a bot’s (`bots.createApiKey`); ' +
    'another user’s key is 403, and a request authenticated by an API key is refused (403). An absent field stays ' +
    'as it is; null lifts that restriction. The caps of creation apply: a permission you do not hold, a project of ' +
    'another organization, or what the organization key policy forbids is 400 at that item. Audited as ' +
    '`api_key.updated` with each changed field before and after; an unchanged key writes nothing.',
  ...keysApi,
  sudo: true,
  credentials: NOT_API_KEYS,
  params: apiKeyParams,
  body: updateApiKeyBody,
  owner: changedAsCreating,
  anyPermission: ['apiKeys.create', 'bots.createApiKey'],
  credentialRefusal: 'API keys cannot change API keys.',
  success: { status: 200, description: 'The key as changed.', schema: apiKey },
});

export const apiKeyAccessOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/api-keys/{keyId}/access',
  summary: 'What an API key would use of its owner’s permissions now',
  description:
    SEEN_BY_LISTERS +
    'A restricted key lists the permissions it names, with `ownerHolds` false where the owner has lost one; a Full ' +
    'access key lists what its owner holds.',
  ...keysApi,
  credentials: ANY_CREDENTIAL,
  self: { orPermission: 'apiKeys.list' },
  owner: readByOwnerOrLister,
  params: apiKeyParams,
  success: { status: 200, description: 'The key and its permissions.', schema: apiKeyAccess },
});

export const currentApiKeyOp = defineOperation({
  method: 'GET',
  path: '/v1/api-key',
  summary: 'The API key this request is authenticated by, and what it may do now',
  description:
    'Needs no permission. `effective`: the owner’s permissions as they stand now, intersected with the key’s ' +
    'restrictions (`projectId` null: in the whole organization). `clientIp`: the address the key is checked ' +
    'against. Any other credential: 403.',
  tags: ['API keys'],
  scope: 'none',
  credentials: ['api_key'],
  self: { restrictedKeys: 'always' },
  credentialRefusal: 'Only an API key can ask which API key it is.',
  success: { status: 200, description: 'The calling key.', schema: currentApiKey },
});

export const rollApiKeyOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/api-keys/{keyId}/roll',
  summary: 'Roll an API key: a new secret, the old one working for a grace period',
  description:
    'Allowed as creating a key for its owner: your own key (`apiKeys.create`) or a bot’s (`bots.createApiKey`); ' +
    'another user’s key is 403, and a request authenticated by an API key is refused (403). The new key keeps ' +
    'name, owner and lifetime; the old one works until `stopsAt` = now + grace (0: revoked at once). ' +
    'Unknown or revoked: 404; expired: 409 `api_key_expired`; already rolled: 409 `api_key_already_rolled`.',
  ...keysApi,
  sudo: true,
  credentials: NOT_API_KEYS,
  params: apiKeyParams,
  body: rollApiKeyBody,
  owner: rolledAsCreating,
  anyPermission: ['apiKeys.create', 'bots.createApiKey'],
  credentialRefusal: 'API keys cannot roll API keys (a roll creates a key).',
  success: {
    status: 201,
    description: 'The new key and its secret, shown once, and the old key with its `stopsAt`.',
    schema: rolledApiKey,
    headers: { 'Cache-Control': 'no-store' },
  },
  errors: ['api_key_expired', 'api_key_already_rolled'],
});

export const apiKeyUsageOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/api-keys/{keyId}/usage',
  summary: 'Requests made with an API key per UTC day, last 30 days',
  description: SEEN_BY_LISTERS + 'Counts are flushed from each instance every few seconds.',
  ...keysApi,
  credentials: ANY_CREDENTIAL,
  self: { orPermission: 'apiKeys.list' },
  owner: readByOwnerOrLister,
  params: apiKeyParams,
  success: { status: 200, description: '30 days, oldest first, zeros included.', schema: apiKeyUsage },
});

export const listApiKeyLeaksOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/api-key-leaks',
  summary: 'Keys revoked because a leak was reported, until their notice is dismissed',
  description: 'Your own keys; every key of the organization with `apiKeys.list`.',
  ...keysApi,
  credentials: ANY_CREDENTIAL,
  self: { orPermission: 'apiKeys.list' },
  params: orgParams,
  success: {
    status: 200,
    description: 'Open leak notices, newest first.',
    schema: z.object({ items: z.array(apiKeyLeak) }),
  },
});

export const dismissApiKeyLeakOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/api-key-leaks/{keyId}',
  summary: 'Dismiss a leak notice',
  description: 'Your own key’s notice, or anyone’s with `apiKeys.delete`. No open notice: 404.',
  ...keysApi,
  credentials: ANY_CREDENTIAL,
  self: { orPermission: 'apiKeys.delete' },
  owner: leakDismissedByOwnerOrDeleter,
  params: leakParams,
  success: { status: 204, description: 'Dismissed for everyone.' },
});

export const apiKeyOperations = [
  createApiKeyOp,
  listApiKeysOp,
  revokeApiKeyOp,
  updateApiKeyOp,
  apiKeyAccessOp,
  currentApiKeyOp,
  rollApiKeyOp,
  apiKeyUsageOp,
  listApiKeyLeaksOp,
  dismissApiKeyLeakOp,
];
