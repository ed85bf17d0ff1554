import type pg from 'pg';
import { keepLatest } from '../keep-latest';

/**
 * The latest statements that took long, on the server's clock (performance.now), for a slow request's log line to
 * name those it overlapped (lib/observability/stalls.ts). On the embedded database, the time a statement held its one
 * backend (every statement queued behind it waited); on PostgreSQL, a statement's round trip from sending it to its
 * answer (waits for the server's locks included), and a wait for a connection of a full pool.
 */
export type LongStatement = { statement: string; start: number; ms: number };
export const LONG_STATEMENT_MS = 10;
const KEPT = 256;
const long = ((globalThis as unknown as { __svcLongStatements?: LongStatement[] }).__svcLongStatements ??= []);

/**
 * Notes `text` (its first 80 characters, whitespace folded: never a value) as having taken `ms` until now. Only its
 * head is folded: a bulk statement's text may run to megabytes.
 */
export function noteLongStatement(text: string, ms: number): void {
  const statement = text.slice(0, 1000).replace(/\s+/g, ' ').slice(0, 80);
  keepLatest(long, { statement, start: performance.now() - ms, ms }, KEPT);
}

/** The long statements (≥ 10 ms) that overlapped `from`..`to` (performance.now). */
export function longStatementsBetween(from: number, to: number): LongStatement[] {
  return long.filter((s) => s.start < to && s.start + s.ms > from);
}

/** Notes `text` if it has taken long since `started` (performance.now). */
function noteIfLong(text: string, started: number): void {
  const ms = performance.now() - started;
  if (ms >= LONG_STATEMENT_MS) noteLongStatement(text, ms);
}

type QueryArgs = Parameters<pg.Client['query']>;
type Callback = (err: Error | null, result: unknown) => void;

/**
 * node-postgres's client with every statement timed, send to answer, and noted when long. The pool runs a
 * statement in the callback form; drizzle's transactions in the promise form (one more promise per statement).
 * A submittable (a cursor) goes untimed.
 */
export function timedClient(Client: typeof pg.Client): typeof pg.Client {
  const query = Client.prototype.query as (...args: QueryArgs) => unknown;
  class TimedClient extends Client {}
  TimedClient.prototype.query = function (this: pg.Client, ...args: QueryArgs) {
    const [config] = args;
    if (config && typeof config === 'object' && 'submit' in config) return query.apply(this, args);
    const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
    const started = performance.now();
    const done = () => noteIfLong(text, started);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      (args as unknown[])[last] = (err: Error | null, result: unknown) => {
        done();
        callback(err, result);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<unknown> | undefined;
    result?.then(done, done);
    return result;
  } as typeof Client.prototype.query;
  return TimedClient;
}

/** Notes a wait for one of `pool`'s connections that took long, under the pool's name. */
export function timeConnectionWaits(pool: pg.Pool, name: string): void {
  type Connect = (callback?: (err: Error | undefined, client: unknown, done: () => void) => void) => unknown;
  const connect = (pool.connect as Connect).bind(pool);
  const label = `(waiting for a connection of pool ${name})`;
  const timed: Connect = (callback) => {
    const started = performance.now();
    const done = () => noteIfLong(label, started);
    if (callback) {
      return connect((err, client, release) => {
        done();
        callback(err, client, release);
      });
    }
    const result = connect() as Promise<unknown>;
    result.then(done, done);
    return result;
  };
  (pool as unknown as { connect: Connect }).connect = timed;
}
