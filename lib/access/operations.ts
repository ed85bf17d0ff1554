import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { orgParams } from '../orgs/schema';
import { effectivePermissions } from './schema';

export const effectivePermissionsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/permissions',
  summary: 'The caller’s own effective permissions in the organization',
  description:
    'Any member may read their own. Evaluated from the policy bindings at the time of the request, like every check.',
  tags: ['Organizations'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  self: { restrictedKeys: 'always' },
  params: orgParams,
  success: {
    status: 200,
    description: 'Permissions at organization scope and per project.',
    schema: effectivePermissions,
  },
});

export const accessOperations = [effectivePermissionsOp];
