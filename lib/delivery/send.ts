import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressAllowed } from './address';

export const TIMEOUT_MS = 10_000;
export const MAX_ANSWER_BYTES = 64 * 1024;

/** Why no answer came: PRODUCT.md's `lastError.class` values, `http` and `invalid_response` being the answered ones. */
export type FailureClass = 'timeout' | 'connection' | 'tls' | 'blocked_address';

export type SendResult = {
  status: number | null;
  error: string | null;
  /** Set when no answer came (status null). */
  errorClass: FailureClass | null;
  retryAfter: string | null;
  durationMs: number;
  /** The first 64 KiB of the answer's body, as text. */
  answer: string;
  /** Refused before connecting (the URL's guard): nothing was sent. */
  notSent?: boolean;
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
 * POSTs one signed request: `timeoutMs` for the whole exchange, body included (then it is abandoned), no
 * redirects followed (a 3xx is an answer like any other), at most 64 KiB of the answer read. Resolves with what
 * happened; never throws.
 */
export function sendSigned(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    const finish = (
      result: Omit<SendResult, 'durationMs' | 'answer' | 'errorClass'>,
      errorClass: FailureClass | null = null,
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, errorClass, answer: Buffer.concat(chunks).toString('utf8'), durationMs: elapsed() });
    };
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup,
        agent: false,
      },
      (res) => {
        let read = 0;
        const done = () => {
          finish({ status: res.statusCode ?? null, error: null, retryAfter: headerText(res.headers['retry-after']) });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          if (read < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - read));
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) done();
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `No answer within ${timeoutMs / 1000} s.`, retryAfter: null }, 'timeout');
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        { status: null, error: `${err.code ?? 'ERROR'}: ${err.message}`.slice(0, 500), retryAfter: null },
        failureClass(err.code),
      ),
    );
    req.end(body);
  });
}

function headerText(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
