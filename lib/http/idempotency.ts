import { createHash } from 'node:crypto';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
  type Claim,
  type IdempotencyRecord,
  type IdempotencyScope,
} from '../db/idempotency';
import { ApiError } from '../errors';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How long a claim holds before another instance may take it over (the first one crashed). */
export const IDEMPOTENCY_LOCK_MS = 30_000;

/** The request a key stands for: the body exactly as sent and the precondition it was sent under. */
export function idempotencyFingerprint(bodyText: string | null, ifMatch: string | null): string {
  return createHash('sha256')
    .update(JSON.stringify([bodyText ?? '', ifMatch ?? '']))
    .digest('hex');
}

function replay(record: IdempotencyRecord): Response {
  return new Response(record.responseBody, {
    status: record.responseStatus ?? 200,
    headers: { ...(record.responseHeaders ?? {}), 'idempotent-replayed': 'true' },
  });
}

async function claimOrAnswer(
  scope: IdempotencyScope,
  fingerprint: string,
): Promise<{ claim: Claim } | { answer: Response }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = new Date();
    const times = {
      now,
      lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
    };
    const result = await claimIdempotencyKey(scope, fingerprint, times);
    if ('claim' in result) return result;
    const record = result.existing;
    const stale =
      record.expiresAt <= now ||
      (record.state === 'in_progress' && record.lockedUntil !== null && record.lockedUntil <= now);
    if (stale) {
      const claim = await takeOverIdempotencyKey(record, fingerprint, times);
      if (claim) return { claim };
      continue; // another instance took it first: look again
    }
    if (record.fingerprint !== fingerprint) throw new ApiError('idempotency_conflict');
    if (record.state === 'done') return { answer: replay(record) };
    throw new ApiError('idempotency_in_progress', undefined, { headers: { 'retry-after': '1' } });
  }
  throw new ApiError('idempotency_in_progress', undefined, { headers: { 'retry-after': '1' } });
}

/**
 * Runs `execute` at most once per (principal, method, path, Idempotency-Key) within 24 hours and
 * answers retries with the stored response. 2xx-4xx answers are stored; a 5xx releases the key.
 * `execute` must turn its own errors into responses, so they are stored like any answer.
 */
export async function withIdempotency(
  req: Request,
  scope: Omit<IdempotencyScope, 'key'>,
  bodyText: string | null,
  execute: () => Promise<Response>,
): Promise<Response> {
  const key = req.headers.get('idempotency-key');
  if (key === null) return execute();
  const fingerprint = idempotencyFingerprint(bodyText, req.headers.get('if-match'));
  const outcome = await claimOrAnswer({ ...scope, key }, fingerprint);
  if ('answer' in outcome) return outcome.answer;
  let response: Response;
  try {
    response = await execute();
  } catch (err) {
    await releaseIdempotencyKey(outcome.claim).catch(() => {});
    throw err;
  }
  if (response.status >= 500) {
    await releaseIdempotencyKey(outcome.claim);
    return response;
  }
  const body = await response.text();
  const headers = Object.fromEntries(response.headers.entries());
  await completeIdempotencyKey(outcome.claim, { status: response.status, headers, body });
  return new Response(body, { status: response.status, headers });
}
