import type { SendResult } from '../../lib/delivery/send';

/**
 * What the sender (lib/delivery/send.ts) returns for an answer of `status`, read whole and empty; `null` is no
 * answer (the connection refused). For the tests of a channel's reading and record, which need no receiver.
 */
export function sendResult(status: number | null, extra: Partial<SendResult> = {}): SendResult {
  return {
    status,
    error: status === null ? 'connect ECONNREFUSED' : null,
    errorClass: status === null ? 'connection' : null,
    retryAfter: null,
    durationMs: 3,
    answer: '',
    answerWhole: true,
    ...extra,
  };
}
