/** The one delivery the dead-letters seed records: a batch of three that its target refused with a 500. */
export const SEEDED_DELIVERY = {
  messages: 3,
  outcome: 'failed',
  status: 500,
  durationMs: 250,
  errorClass: 'http',
  errorMessage: 'Target answered 500',
} as const;
