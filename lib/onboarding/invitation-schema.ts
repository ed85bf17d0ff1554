import { z } from 'zod';
import { policyBinding, policyList } from '../access/schema';
import { emailAddress, newPassword, personName } from './schema';

export const invitationParams = z.object({ orgId: z.uuid(), invitationId: z.uuid() });
/** An invitation link's token: 32 random bytes in base64url; anything else is 404 before any lookup. */
export const invitationTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

export const createInvitationBody = z
  .strictObject({ email: emailAddress, policies: policyList })
  .meta({ id: 'CreateInvitation' });
export type CreateInvitationBody = z.infer<typeof createInvitationBody>;

export const invitation = z
  .object({
    id: z.uuid(),
    email: z.string(),
    policies: z.array(policyBinding),
    invitedBy: z.object({ id: z.uuid(), name: z.string() }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof invitation>;

export const issuedInvitation = z
  .object({
    invitation,
    url: z
      .string()
      .optional()
      .meta({ description: 'The link to pass on, shown once; only without SMTP_URL (else it went by email).' }),
  })
  .meta({ id: 'IssuedInvitation' });

export const invitationPreview = z
  .object({
    organization: z.object({ id: z.uuid(), name: z.string() }),
    inviter: z.object({ name: z.string() }),
    email: z.string(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'InvitationPreview' });

export const acceptInvitationBody = z
  .strictObject({
    name: personName.optional(),
    password: newPassword.optional(),
  })
  .optional()
  .meta({ id: 'AcceptInvitation', description: 'Signed in as the invited email: no body. Otherwise the new account.' });
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBody>;

export const acceptedInvitation = z
  .object({
    user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
    organization: z.object({ id: z.uuid(), name: z.string() }),
  })
  .meta({ id: 'AcceptedInvitation' });
