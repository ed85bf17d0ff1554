import { isDatabaseUnavailable } from '../db/errors';
import { log } from '../observability/log';
import { requestDuration, slowRequests } from '../observability/metrics';
import { stallsBetween } from '../observability/stalls';
import { settings } from '../settings/settings';

/** Seconds a client should wait before retrying while a dependency is down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * `req_` + 24 hex characters (88 random bits); Web Crypto, so proxy.ts and route handlers share it.
 * randomUUID draws from a buffered entropy pool, where getRandomValues paid a call into OpenSSL per request.
 */
export function newRequestId(): string {
  const uuid = crypto.randomUUID();
  return `req_${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(14, 18)}${uuid.slice(19, 23)}${uuid.slice(24, 28)}`;
}

export type Failure = 'unavailable' | 'internal';

/**
 * What an error the protocol does not know means: a dependency that is down (503) or a bug (500).
 * Either way the stack goes to the log under the request id, which the answer names.
 */
export function classifyFailure(err: unknown, requestId: string, protocol: string): Failure {
  const failure: Failure = isDatabaseUnavailable(err) ? 'unavailable' : 'internal';
  log.error({ requestId, protocol, err }, failure === 'unavailable' ? 'database unavailable' : 'unhandled error');
  return failure;
}

/** One protocol the app speaks (`/v1`, OAuth, SCIM): only how its answers look. */
export type Protocol = {
  name: string;
  /** The protocol's answer for an error it threw on purpose, or null for anything else. */
  known: (err: unknown, requestId: string) => Response | null;
  /** Its answer for the failures every protocol shares. */
  failure: (failure: Failure, requestId: string) => Response;
};

/** What a request's log line and metrics name it by: never its path, whose ids would make labels unbounded. */
export type RequestLabel = { method: string; route: string };

/**
 * The skeleton of every request: a request id on the answer, errors the protocol knows in its own body,
 * everything else classified into 503 (with Retry-After) or 500 and logged under the id; then one log line
 * and one observation of the duration histogram, under the route template `at` names.
 */
export async function serve(
  protocol: Protocol,
  run: (requestId: string) => Promise<Response>,
  at?: RequestLabel,
): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  let res: Response;
  try {
    res = await run(requestId);
  } catch (err) {
    res = answerError(protocol, err, requestId);
  }
  res.headers.set('x-request-id', requestId);
  noteRequest(requestId, at ?? { method: '', route: protocol.name }, res.status, started);
  return res;
}

function noteRequest(requestId: string, { method, route }: RequestLabel, status: number, started: number): void {
  const now = performance.now();
  const seconds = (now - started) / 1000;
  requestDuration.observe({ method, route, status: String(status) }, seconds);
  const line = { requestId, method, route, status, durationMs: Math.round(seconds * 10_000) / 10 };
  if (now - started < settings().SLOW_REQUEST_MS) return log.info(line, 'request');
  slowRequests.inc({ method, route });
  log.warn({ ...line, during: stallsBetween(started, now) }, 'slow request');
}

/** From this long on, a request's line is a warning that says what else was going on (docs/run.md, Logs). */

/** The protocol's answer for any error, for code that must turn an error into a response itself. */
export function answerError(protocol: Protocol, err: unknown, requestId: string): Response {
  const known = protocol.known(err, requestId);
  if (known) return known;
  const failure = classifyFailure(err, requestId, protocol.name);
  const res = protocol.failure(failure, requestId);
  if (failure === 'unavailable') res.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return res;
}
