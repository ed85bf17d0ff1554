import { z } from 'zod';
import { uuidIdParam } from '../short-ids';
import { policyBinding, policyList } from '../access/schema';

export const memberParams = z.object({ orgId: z.uuid(), userId: uuidIdParam('member') });

export const member = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    status: z.enum(['active', 'suspended']),
    policies: z.array(policyBinding),
    joinedAt: z.iso.datetime(),
    twoFactorEnabled: z.boolean().meta({ description: 'Whether the member has TOTP on or a passkey.' }),
  })
  .meta({ id: 'Member' });

export type Member = z.infer<typeof member>;

export const memberPoliciesBody = z.strictObject({ policies: policyList }).meta({ id: 'MemberPolicies' });
export type MemberPoliciesBody = z.infer<typeof memberPoliciesBody>;
