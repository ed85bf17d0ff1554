import { NOT_API_KEYS, defineOperation } from '../pipeline/operation';

export const endAllSessionsOp = defineOperation({
  method: 'POST',
  path: '/v1/sessions/end-all',
  summary: 'Sign out of all sessions',
  description:
    'Ends every console session of the calling user at once, on every instance, including the one making the request. API keys get 403.',
  tags: ['Sessions'],
  scope: 'none',
  credentials: NOT_API_KEYS,
  self: {},
  credentialRefusal: 'API keys cannot end sessions; sign in to the console.',
  success: { status: 204, description: 'Every session of the user has ended.' },
});

export const sessionOperations = [endAllSessionsOp];
