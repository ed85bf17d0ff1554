import { z } from 'zod';
import { ANY_CREDENTIAL, defineOperation } from '../http/operation';

export const memberParams = z.object({ orgId: z.uuid(), userId: z.uuid() });

export const removeMemberOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/members/{userId}',
  summary: 'Remove a member from the organization',
  description:
    'In one transaction: the membership, the member’s policy bindings in the organization, and every API key the member owns there ' +
    '(revoked, reason `member_removed`). The last OrganizationAdmin cannot be removed: 409 `last_organization_admin`.',
  tags: ['Members'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: memberParams,
  permission: 'members.delete',
  success: { status: 204, description: 'Removed; the member’s keys in this organization stop working at once.' },
  errors: ['last_organization_admin'],
});

export const leaveOrganizationOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/members/me/leave',
  summary: 'Leave the organization',
  description:
    'Any member may leave; their policy bindings go and their API keys in the organization are revoked (reason `member_left`). ' +
    'The last OrganizationAdmin cannot leave: 409 `last_organization_admin`. Bots are not members: 403.',
  tags: ['Members'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: z.object({ orgId: z.uuid() }),
  success: { status: 204, description: 'Left the organization.' },
  errors: ['last_organization_admin'],
});

export const memberOperations = [removeMemberOp, leaveOrganizationOp];
