import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryOptions } from '@electric-sql/pglite';
import { LONG_STATEMENT_MS, noteLongStatement } from './long-statements';
import { isBackground } from './priority';

type Field = { name: string; dataTypeID: number };
export type Results = { rows: unknown[]; fields: Field[]; affectedRows?: number };
type Reply = {
  id: number;
  result?: unknown;
  error?: Record<string, unknown> & { name: string; message: string };
  /** How long the backend worked on it, queueing excluded. */
  ranMs?: number;
};

// Under constant load requests may never all be answered at once: background work then goes after this long.
const BACKGROUND_WAIT_MS = 200;

/** A statement sent and not answered; `statement` names it if it turns out long. */
type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void; statement: string };

/** What drizzle's PGlite driver needs of a client, inside a transaction too. */
export type ThreadClient = {
  query: (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;
  exec: (text: string) => Promise<Results[]>;
};

// Loaded by Node from the source tree, not bundled: the worker is a file of its own.
const WORKER = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib/db/pglite-worker.mjs');

/**
 * The embedded database in a thread of its own (lib/db/pglite-worker.mjs). In the server's thread, every
 * statement would run PGlite's WASM backend on the event loop: no other request moves while it runs, and a
 * long one (an audit export, a list of 100,000 keys) stalls them all. Here the server's thread only sends the
 * statement and takes the rows back; the backend runs beside it, on the machine's other core.
 *
 * The same client as PGlite's for drizzle: `query`, `exec` and `transaction`, one statement or transaction
 * at a time in the backend, as before. Row parsers (drizzle keeps timestamps as text) are applied here, to
 * the columns of the types they name; values go to the worker as they are and are serialized there by the
 * types the statement declares.
 */
export class PgliteThread implements ThreadClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  /** Requests' statements sent and not answered; background statements wait for none (lib/db/priority.ts). */
  private readonly foreground = new Set<number>();
  private readonly quiet: (() => void)[] = [];
  private nextId = 1;
  /** The timers of `every`: cleared when the thread stops or is closed. */
  private readonly timers = new Set<ReturnType<typeof setInterval>>();
  private closed = false;
  /** Why the thread stopped, once it has: every later statement fails with it. */
  private stopped: Error | null = null;
  readonly ready: Promise<void>;

  /** `onExit` hears of a worker that stopped without being closed (the backend aborted). */
  constructor(dataDir: string, onExit: (err: Error) => void) {
    this.worker = new Worker(WORKER, { workerData: { dataDir } });
    this.ready = new Promise((resolve, reject) => {
      const onReady = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        this.worker.off('message', onReady);
        this.worker.on('message', (reply: Reply) => this.settle(reply));
        this.idle();
        resolve();
      };
      this.worker.on('message', onReady);
      this.worker.once('error', reject);
    });
    this.worker.on('error', (err) => this.stop(err));
    this.worker.on('exit', (code) => {
      const err = this.stop(new Error(`PGlite is closed: its thread exited (${code}).`));
      this.stopped = err;
      if (!this.closed) onExit(err);
    });
  }

  query(text: string, params: unknown[] = [], options?: QueryOptions, transaction?: number): Promise<Results> {
    return this.withParsers(this.call('query', { text, params, options: this.shape(options), transaction }), options);
  }

  exec(text: string, transaction?: number): Promise<Results[]> {
    return this.call('exec', { text, transaction }) as Promise<Results[]>;
  }

  /** A named statement: parsed once in the backend, then bound and run (never inside a transaction). */
  named(text: string, values: unknown[], name: string, options?: QueryOptions): Promise<Results> {
    return this.withParsers(this.call('named', { text, values, name, options: this.shape(options) }), options);
  }

  async transaction<T>(fn: (tx: ThreadClient) => Promise<T>): Promise<T> {
    // The transaction is known by its begin's id, taken now: a background begin may be sent later (requests first).
    const id = this.nextId++;
    await this.call('begin', {}, id);
    const tx: ThreadClient = {
      query: (text, params, options) => this.query(text, params, options, id),
      exec: (text) => this.exec(text, id),
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      // The caller's error says more than a failed rollback would.
      await this.call('end', { transaction: id, commit: false }).catch(() => {});
      throw err;
    }
    await this.call('end', { transaction: id, commit: true });
    return result;
  }

  /** A consistent copy of the data directory into `into` (pglite-worker.mjs: writes wait only for its last pass, `heldMs`). */
  async snapshot(into: string): Promise<{ heldMs: number }> {
    return (await this.call('snapshot', { into })) as { heldMs: number };
  }

  /** Statements sent and not yet answered (running or queued), for the metrics. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Runs `task` every `ms` for as long as the thread runs (upkeep: lib/db/analyze.ts), never keeping the process
   * alive; a failed run goes to `onError`, and the next runs as planned. A thread that stops or is closed takes
   * its tasks with it, so a database opened again never has a dead thread's tasks running beside its own.
   */
  every(ms: number, task: () => Promise<void>, onError: (err: unknown) => void): void {
    if (this.closed || this.stopped) return;
    const timer = setInterval(() => void task().catch(onError), ms);
    timer.unref();
    this.timers.add(timer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.clearTimers();
    await this.call('close', {}).catch(() => {});
    this.closed = true;
    await this.worker.terminate();
  }

  private call(op: string, message: Record<string, unknown>, id = this.nextId++): Promise<unknown> {
    // A background statement that opens work (not one inside its own open transaction) lets requests go first.
    const opens = message.transaction === undefined && op !== 'end' && op !== 'close';
    if (opens && isBackground() && this.foreground.size > 0)
      return this.requestsDone().then(() => this.send(op, message, id, false));
    return this.send(op, message, id, !isBackground());
  }

  /** Resolves when no request's statement is in flight, or after BACKGROUND_WAIT_MS (never starved for long). */
  private requestsDone(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.quiet.indexOf(done);
        if (at >= 0) this.quiet.splice(at, 1);
        resolve();
      }, BACKGROUND_WAIT_MS);
      this.quiet.push(done);
    });
  }

  private send(op: string, message: Record<string, unknown>, id: number, request: boolean): Promise<unknown> {
    if (this.closed || this.stopped) return Promise.reject(this.stopped ?? new Error('PGlite is closed.'));
    if (request) this.foreground.add(id);
    // The thread keeps the process alive only while it has work: an idle database lets a script end.
    if (this.pending.size === 0) this.worker.ref();
    const statement = typeof message.text === 'string' ? message.text : op;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, statement });
      this.worker.postMessage({ ...message, id, op });
    });
  }

  private settle({ id, result, error, ranMs }: Reply): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    if (ranMs !== undefined && ranMs >= LONG_STATEMENT_MS) noteLongStatement(pending.statement, ranMs);
    this.pending.delete(id);
    if (this.foreground.delete(id) && this.foreground.size === 0) for (const done of this.quiet.splice(0)) done();
    this.idle();
    if (error) pending.reject(Object.assign(new Error(error.message), error));
    else pending.resolve(result);
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }

  private idle(): void {
    if (this.pending.size === 0) this.worker.unref();
  }

  /** Fails every statement in flight: the database is unavailable until it is opened again. */
  private stop(cause: Error): Error {
    this.clearTimers();
    const err = new Error(cause.message.startsWith('PGlite is closed') ? cause.message : 'PGlite is closed.', {
      cause,
    });
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
    this.foreground.clear();
    for (const done of this.quiet.splice(0)) done();
    return err;
  }

  /** What the worker needs of the options: the row mode, and the types whose columns stay text for our parsers. */
  private shape(options?: QueryOptions) {
    if (!options) return undefined;
    return { rowMode: options.rowMode, keepText: options.parsers ? Object.keys(options.parsers).map(Number) : [] };
  }

  private async withParsers(call: Promise<unknown>, options?: QueryOptions): Promise<Results> {
    const results = (await call) as Results;
    const parsers = options?.parsers;
    if (!parsers) return results;
    const columns = results.fields.flatMap((field, index) => {
      const parser = parsers[field.dataTypeID] as ((value: string) => unknown) | undefined;
      return parser ? [{ key: options.rowMode === 'array' ? index : field.name, parser }] : [];
    });
    if (columns.length === 0) return results;
    for (const row of results.rows as Record<string | number, unknown>[]) {
      for (const { key, parser } of columns) {
        const value = row[key];
        if (typeof value === 'string') row[key] = parser(value);
      }
    }
    return results;
  }
}
