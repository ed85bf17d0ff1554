import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import { member, memberParams, memberPoliciesBody } from './schema';

export const listMembersOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/members',
  summary: "List an organization's members and their policies",
  tags: ['Organizations'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  query: pageQuery,
  permission: 'members.list',
  success: { status: 200, description: 'A page of members.', schema: pageOf(member) },
  errors: ['invalid_cursor'],
});

export const removeMemberOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/members/{userId}',
  summary: 'Remove a member from the organization',
  description:
    'In one transaction: the membership, the member’s policy bindings in the organization, and every API key the member owns there ' +
    '(revoked, reason `member_removed`). The last OrganizationAdmin cannot be removed: 409 `last_organization_admin`.',
  tags: ['Members'],
  sudo: true,
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
  self: {},
  params: orgParams,
  success: { status: 204, description: 'Left the organization.' },
  errors: ['last_organization_admin'],
});

export const setMemberPoliciesOp = defineOperation({
  method: 'PUT',
  path: '/v1/organizations/{orgId}/members/{userId}/policies',
  summary: "Replace a member's policies",
  description:
    'Replaces every binding of the member in the organization. A policy given that the caller does not hold at that ' +
    'scope (every permission of it), an unknown policy or a project of another organization: 400 at its path ' +
    '(`policies.0.policy`); bindings the member keeps are not given again. The last OrganizationAdmin keeps it: 409 ' +
    '`last_organization_admin`. The member’s keys, tokens and sessions feel the change on their next request. Audit ' +
    '`member.policies_changed` with before and after.',
  tags: ['Members'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: memberParams,
  body: memberPoliciesBody,
  permission: 'members.update',
  success: { status: 200, description: 'The member with the new policies.', schema: member },
  errors: ['last_organization_admin'],
});

export const memberOperations = [listMembersOp, removeMemberOp, leaveOrganizationOp, setMemberPoliciesOp];
