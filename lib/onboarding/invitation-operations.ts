import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import {
  acceptedInvitation,
  acceptInvitationBody,
  createInvitationBody,
  invitation,
  invitationParams,
  invitationPreview,
  invitationTokenParams,
  issuedInvitation,
} from './invitation-schema';

export const createInvitationOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/invitations',
  summary: 'Invite someone by email',
  description:
    'A link valid 7 days, single use; only its hash is stored. With SMTP_URL it goes by email (kind `invitation`), ' +
    'else the answer carries it in `url`, once. A policy the caller does not hold at that scope, an unknown policy or ' +
    'a project of another organization: 400 at its path. The email is a member already: 409 `already_member`. ' +
    'Audit `invitation.created`.',
  tags: ['Members'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  body: createInvitationBody,
  permission: 'members.invite',
  success: { status: 201, description: 'The invitation (and its link without SMTP_URL).', schema: issuedInvitation },
  errors: ['already_member'],
});

export const listInvitationsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/invitations',
  summary: 'List pending invitations',
  description: 'Neither accepted, revoked nor expired; newest first. No links: they were shown once.',
  tags: ['Members'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  query: pageQuery,
  permission: 'members.invite',
  success: { status: 200, description: 'A page of pending invitations.', schema: pageOf(invitation) },
  errors: ['invalid_cursor'],
});

export const revokeInvitationOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/invitations/{invitationId}',
  summary: 'Revoke a pending invitation',
  description: 'Its link dies at once (then 404). Audit `invitation.revoked`.',
  tags: ['Members'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: invitationParams,
  permission: 'members.invite',
  success: { status: 204, description: 'Revoked.' },
});

export const resendInvitationOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/invitations/{invitationId}/resend',
  summary: 'Send a pending invitation again with a new link',
  description:
    'A new link, valid 7 days from now; the old one dies. Emailed with SMTP_URL, else in `url`. Audit `invitation.resent`.',
  tags: ['Members'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: invitationParams,
  permission: 'members.invite',
  success: {
    status: 200,
    description: 'The invitation (and its new link without SMTP_URL).',
    schema: issuedInvitation,
  },
});

export const previewInvitationOp = defineOperation({
  method: 'GET',
  path: '/v1/invitations/{token}',
  summary: 'What an invitation link is for',
  description: 'Public: the organization, who invited, the invited email. Unknown, used, revoked or expired: 404.',
  tags: ['Onboarding'],
  scope: 'none',
  credentials: 'public',
  params: invitationTokenParams,
  success: { status: 200, description: 'The invitation as its invitee sees it.', schema: invitationPreview },
  errors: ['too_many_requests'],
});

export const acceptInvitationOp = defineOperation({
  method: 'POST',
  path: '/v1/invitations/{token}/accept',
  summary: 'Accept an invitation',
  description:
    'Signed in to the console as the invited email: no body, the user joins. Not signed in: `{name, password}` makes ' +
    'the account (when no user has the email; else 401: sign in first) and it joins. Unknown, used, revoked or ' +
    'expired: 404; signed in as another email: 403 `invitation_email_mismatch`; already a member: 409 ' +
    '`already_member`. Audit `invitation.accepted` and `member.joined`.',
  tags: ['Onboarding'],
  scope: 'none',
  credentials: 'public',
  params: invitationTokenParams,
  body: acceptInvitationBody,
  success: { status: 200, description: 'Joined.', schema: acceptedInvitation },
  errors: ['invitation_email_mismatch', 'already_member', 'too_many_requests'],
});

export const invitationOperations = [
  createInvitationOp,
  listInvitationsOp,
  revokeInvitationOp,
  resendInvitationOp,
  previewInvitationOp,
  acceptInvitationOp,
];
