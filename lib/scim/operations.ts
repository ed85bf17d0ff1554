import { z } from 'zod';
import { NOT_API_KEYS, defineOperation } from '../pipeline/operation';
import { orgParams } from '../orgs/schema';

export const scimToken = z
  .object({
    id: z.uuid(),
    prefix: z.string(),
    createdAt: z.iso.datetime(),
    token: z.string().meta({ description: 'The bearer token for `/scim/v2`. Shown in this response only.' }),
  })
  .meta({ id: 'ScimToken' });

export const createScimTokenOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/scim-tokens',
  summary: 'Create the organization’s SCIM token (replaces the previous one)',
  description:
    'Needs `members.delete`, since an identity provider holding the token can suspend members. ' +
    'Any earlier token of the organization stops working. Refused to API keys. The token is in this response only.',
  tags: ['Members'],
  sudo: true,
  scope: 'organization',
  credentials: NOT_API_KEYS,
  params: orgParams,
  // Nothing to configure yet: no body, or `{}`. Anything else is 400 like every write, and revokes nothing.
  body: z
    .strictObject({})
    .optional()
    .meta({ id: 'CreateScimToken', description: 'Optional; when sent, an empty object.' }),
  permission: 'members.delete',
  credentialRefusal: 'API keys cannot create SCIM tokens.',
  success: {
    status: 201,
    description: 'The token, shown once.',
    schema: scimToken,
    headers: { 'Cache-Control': 'no-store' },
  },
});

export const scimOperations = [createScimTokenOp];
