import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressAllowed } from './address';

export const TIMEOUT_MS = 10_000;
export const MAX_ANSWER_BYTES = 64 * 1024;
/** How long an idle kept-alive connection waits for the next request: below Node's and most servers' 5 s. */
const IDLE_SOCKET_MS = 4_000;

/** Why no answer came: PRODUCT.md's `lastError.class` values, `http` and `invalid_response` being the answered ones. */
export type FailureClass = 'timeout' | 'connection' | 'tls' | 'blocked_address';

export type SendResult = {
  status: number | null;
  error: string | null;
  /** Set when no whole answer came (status null). */
  errorClass: FailureClass | null;
  retryAfter: string | null;
  durationMs: number;
  /** The first 64 KiB of the answer's body, as text. */
  answer: string;
  /** Whether `answer` is the whole body: it ended within 64 KiB. */
  answerWhole: boolean;
  /** Refused before connecting (the URL's guard): nothing was sent. */
  notSent?: boolean;
  /** Cancelled by the caller (shutdown) before the answer ended: its connection is closed, nothing is known. */
  cancelled?: boolean;
};

/** The class of a connection's failure, from Node's error code. */
export function failureClass(code: string | undefined): FailureClass {
  if (code === 'EADDRNOTALLOWED') return 'blocked_address';
  if (code && /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH)/.test(code))
    return 'tls';
  return 'connection';
}

/** DNS as usual, but an address the guard refuses fails the connection: a name cannot be rebound inward. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const allowed = addresses.filter((a) => addressAllowed(a.address));
    if (allowed.length === 0) {
      const refused = Object.assign(new Error(`${hostname} resolves to an internal address; not delivered.`), {
        code: 'EADDRNOTALLOWED',
      });
      return callback(refused, '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    callback(null, allowed[0].address, allowed[0].family);
  });
};

/**
 * Kept-alive connections, pooled per target (host and port) by Node's agents. The guard runs in `lookup`, which
 * every new connection calls, so reusing a connection never skips the address check of a new one.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, lookup: guardedLookup, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, lookup: guardedLookup, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
};

type Exchange = { url: URL; headers: Record<string, string>; body: string; timeoutMs: number; signal?: AbortSignal };

/**
 * POSTs one signed request: `timeoutMs` for the whole exchange, body included (then it is abandoned), no redirects
 * followed (a 3xx is an answer like any other), on a kept-alive connection to the target. A 2xx answer is read to
 * its end, whatever its length, keeping its first 64 KiB: an answer cut short (the connection broke, the time ran
 * out) is no answer, a failed attempt. Of any other answer at most 64 KiB is read. `signal` cancels the exchange
 * (shutdown): its connection is closed before the result comes. Resolves with what happened; never throws.
 */
export async function sendSigned(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<SendResult> {
  const started = performance.now();
  const exchange = { url: new URL(url), headers, body, timeoutMs, signal };
  const first = await post(exchange, started);
  // A kept-alive connection the target closed meanwhile fails at once, before any answer: once on a new one.
  return first.reusedSocketReset ? post(exchange, started) : first;
}

function post(
  { url, headers, body, timeoutMs, signal }: Exchange,
  started: number,
): Promise<SendResult & { reusedSocketReset?: boolean }> {
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let responded = false;
    // From a cancel on, only the request's close settles it.
    let cancelling = false;
    const chunks: Buffer[] = [];
    let kept = 0;
    const finish = (
      result: Omit<SendResult, 'durationMs' | 'answer' | 'answerWhole' | 'errorClass'> & { answerWhole?: boolean },
      errorClass: FailureClass | null = null,
      extra: { cancelled?: boolean; reusedSocketReset?: boolean } = {},
    ) => {
      if (settled || (cancelling && !extra.cancelled)) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      resolve({
        answerWhole: false,
        ...result,
        ...extra,
        errorClass,
        answer: Buffer.concat(chunks).toString('utf8'),
        durationMs: elapsed(),
      });
    };
    const noAnswer = (error: string, errorClass: FailureClass, extra = {}) =>
      finish({ status: null, error: error.slice(0, 500), retryAfter: null }, errorClass, extra);
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      agent: agents[url.protocol as keyof typeof agents],
    });
    req.on('response', (res) => {
      responded = true;
      const status = res.statusCode ?? 0;
      const readWhole = status >= 200 && status < 300;
      const answered = (answerWhole: boolean) =>
        finish({ status, error: null, retryAfter: headerText(res.headers['retry-after']), answerWhole });
      res.on('data', (chunk: Buffer) => {
        if (kept < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - kept));
        kept += chunk.length;
        // Enough of an answer that does not acknowledge anything: the rest is not read (nor the connection kept).
        if (!readWhole && kept > MAX_ANSWER_BYTES) {
          answered(false);
          req.destroy();
        }
      });
      res.on('end', () => answered(kept <= MAX_ANSWER_BYTES));
      // Closed before its end: nothing of it counts, whatever its status said.
      res.on('close', () => {
        if (!res.complete)
          noAnswer(`The connection closed after ${kept} bytes of the answer, before its end.`, 'connection');
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      noAnswer(`${err.code ?? 'ERROR'}: ${err.message}`, failureClass(err.code), {
        reusedSocketReset: req.reusedSocket && !responded && (err.code === 'ECONNRESET' || err.code === 'EPIPE'),
      }),
    );
    const timer = setTimeout(() => {
      noAnswer(`No whole answer within ${timeoutMs / 1000} s.`, 'timeout');
      req.destroy();
    }, timeoutMs);
    function cancel() {
      cancelling = true;
      // The result waits for the socket's close: only then may another instance take these messages.
      req.once('close', () => noAnswer('Cancelled at shutdown.', 'connection', { cancelled: true }));
      req.destroy();
    }
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    req.end(body);
  });
}

function headerText(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
