import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { orgParams } from '../orgs/schema';
import { gettingStarted, setPasswordBody, setupBody, setupResult } from './schema';
import { invitationOperations } from './invitation-operations';

export const setupOp = defineOperation({
  method: 'POST',
  path: '/v1/setup',
  summary: 'Make the first administrator',
  description:
    'Public, with the one-time token of the setup URL a server without users logs at start. In one transaction: the ' +
    'user, the organization and their OrganizationAdmin binding (audit `organization.created`). Of two setups at once ' +
    'exactly one wins; once any user exists every token is void and this answers 404. Limited per client address.',
  tags: ['Onboarding'],
  scope: 'none',
  credentials: 'public',
  body: setupBody,
  success: {
    status: 201,
    description: 'The first administrator and their organization; sign in next.',
    schema: setupResult,
  },
  errors: ['too_many_requests'],
});

export const setPasswordOp = defineOperation({
  method: 'POST',
  path: '/v1/set-password',
  summary: 'Choose a password with a one-time link',
  description:
    'Public, with the token of the link `npm run user:create` printed (24 hours, single use). The password is stored ' +
    'hashed, the user’s other links die and their sessions end. Unknown, used or expired: 404.',
  tags: ['Onboarding'],
  scope: 'none',
  credentials: 'public',
  body: setPasswordBody,
  success: { status: 204, description: 'The password is set; sign in with it.' },
  errors: ['too_many_requests'],
});

export const gettingStartedOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/getting-started',
  summary: "An organization's first steps, done or not",
  description:
    'Read from the organization as it is: a project with alerting, a colleague (another member or a pending ' +
    'invitation), an alert sender connected (a post received), a queue with a subscription. The console shows its ' +
    'admins the steps not yet done, each with its page.',
  tags: ['Onboarding'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  permission: 'projects.get',
  success: { status: 200, description: 'Each step.', schema: gettingStarted },
});

export const onboardingOperations = [setupOp, setPasswordOp, gettingStartedOp, ...invitationOperations];
