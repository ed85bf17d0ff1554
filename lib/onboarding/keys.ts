// Shared by the console's hooks (lib/onboarding/queries.ts) and any first render that prefetches them.
import { orgKeys } from '../orgs/keys';

/**
 * Query keys of invitations, under their organization's (or the token's, for the invitee), and of the organization's
 * first steps; never inline string keys.
 */
export const onboardingKeys = {
  invitations: (orgId: string) => [...orgKeys.all, orgId, 'invitations'] as const,
  invitation: (token: string) => ['invitation', token] as const,
  gettingStarted: (orgId: string) => [...orgKeys.all, orgId, 'getting-started'] as const,
};
