import { ANY_CREDENTIAL, defineOperation, NOT_API_KEYS } from '../http/operation';
import { pageOf } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import { apiKey, apiKeyParams, createApiKeyBody, createdApiKey, listApiKeysQuery } from './schema';

export const createApiKeyOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/api-keys',
  summary: 'Create an API key for yourself or for a bot',
  description:
    'A key for yourself needs `apiKeys.create`; a key for a bot (`botId`) needs `bots.createApiKey`. ' +
    'A request authenticated by an API key is refused (403). The full key is in this response only (`Cache-Control: no-store`).',
  tags: ['API keys'],
  scope: 'organization',
  credentials: NOT_API_KEYS,
  params: orgParams,
  body: createApiKeyBody,
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
  tags: ['API keys'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
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
  tags: ['API keys'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: apiKeyParams,
  success: { status: 204, description: 'Revoked; the key stops working at once.' },
});

export const apiKeyOperations = [createApiKeyOp, listApiKeysOp, revokeApiKeyOp];
