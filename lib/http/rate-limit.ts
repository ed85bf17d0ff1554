import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Pool, QueryConfig } from 'pg';
import { AUTH_EPOCH_QUERY } from '../db/auth-epoch';
import { getCounterPool } from '../db/client';
import { Coalescer } from '../db/coalesce';
import { rateLimitRefusals } from '../observability/metrics';
import { readyRedisCounters } from './redis-counters';
import { settings } from '../settings/settings';

/**
 * A verdict on one point: `retryAfter` null when allowed, else the seconds to wait; `read` the value of the
 * limiter's extra read when the store made it in the same statement, else undefined.
 */
export type Verdict = { retryAfter: number | null; read: unknown };
type Consume = (key: string) => Promise<Verdict>;

/**
 * Fixed-window limiter over rate-limiter-flexible. With RATE_LIMIT_REDIS_URL the counters live in Redis, shared by
 * every instance; else on PostgreSQL (several instances) in the shared `rate_limits` table, written through the
 * pool whose commits do not wait for the disk (`getCounterPool`); either way with a per-instance memory limiter
 * as insurance if the store hiccups. On the embedded database (one process) they live in memory.
 * RATE_LIMIT_STORE=memory forces memory.
 */
export class Limiter {
  private store?: Promise<Consume>;

  /** `read`: a scalar query the PostgreSQL store runs in the statement that takes the points (see `Verdict`). */
  constructor(
    readonly name: string,
    private readonly points: () => number,
    private readonly durationSeconds: () => number,
    private readonly read?: string,
  ) {}

  private async create(): Promise<Consume> {
    // RATE_LIMIT_NAMESPACE separates deployments (or test servers) that share one database.
    const options = {
      keyPrefix: `${settings().RATE_LIMIT_NAMESPACE}${this.name}`,
      points: this.points(),
      duration: this.durationSeconds(),
    };
    if (settings().RATE_LIMIT_STORE === 'memory') return consumeOne(new RateLimiterMemory(options));
    const redisUrl = settings().RATE_LIMIT_REDIS_URL;
    // In Redis, the upsert reads no epoch: `admitCaller` reads it on its own (lib/pipeline/authenticate.ts).
    if (redisUrl)
      return consumeBatched(
        new RateLimiterRedis({
          ...options,
          storeClient: await readyRedisCounters(redisUrl),
          rejectIfRedisNotReady: true,
          inMemoryBlockOnConsumed: options.points,
          insuranceLimiter: new RateLimiterMemory(options),
        }),
      );
    const pool = await getCounterPool();
    if (!pool) return consumeOne(new RateLimiterMemory(options));
    // Only a limiter with a read keeps what its upserts read.
    const reads = this.read ? new Map<string, unknown>() : undefined;
    // Concurrent requests of one key take their points in one upsert, not one each.
    return consumeBatched(
      new RateLimiterPostgres({
        ...options,
        storeClient: counterStore(pool, this.read, reads),
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true, // created by the drizzle migrations
        clearExpiredByTimeout: false,
        // Keys that used up their window are refused from memory without another round trip.
        inMemoryBlockOnConsumed: options.points,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
      reads,
    );
  }

  /** Consumes one point, and returns the verdict with the extra read when the store made it. */
  async take(key: string): Promise<Verdict> {
    this.store ??= this.create();
    const verdict = await (await this.store)(key);
    if (verdict.retryAfter !== null) rateLimitRefusals.inc({ limiter: this.name });
    return verdict;
  }

  /** Consumes one point. Returns null when allowed, else the seconds to wait. */
  async consume(key: string): Promise<number | null> {
    return (await this.take(key)).retryAfter;
  }

  async allow(key: string): Promise<boolean> {
    return (await this.consume(key)) === null;
  }
}

/**
 * The verdict for the caller at `index` of the `callers` that took their points in one call: the window's
 * count rose to `consumedPoints` by `callers`, so they fit in arrival order while the count stays within
 * the limit. A key already blocked in memory reports 0 points: all of its callers wait.
 */
function verdict(limiter: RateLimiterAbstract, res: RateLimiterRes, index: number, callers: number): number | null {
  const fits = res.consumedPoints > 0 && res.consumedPoints - callers + index + 1 <= limiter.points;
  return fits ? null : Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/** The limiter's result, refusals included, instead of a rejection. */
const consumed = (limiter: RateLimiterAbstract, key: string, points: number): Promise<RateLimiterRes> =>
  limiter.consume(key, points).catch((res: unknown) => {
    if (res instanceof RateLimiterRes) return res;
    throw res;
  });

/** One point per call: for a store in memory, where a call costs no round trip. */
export function consumeOne(limiter: RateLimiterAbstract): Consume {
  return async (key) => ({ retryAfter: verdict(limiter, await consumed(limiter, key, 1), 0, 1), read: undefined });
}

/**
 * Callers of one key that arrive while its previous call is in flight take their points together in the
 * next call (lib/db/coalesce.ts): n points, one round trip, and a verdict each. `reads` holds what the store's
 * upsert read besides, by the limiter's key (see `counterStore`): one call per key runs at a time, so the entry
 * a call finds is its own.
 */
export function consumeBatched(limiter: RateLimiterAbstract, reads?: Map<string, unknown>): Consume {
  const calls = new Coalescer<string, { res: RateLimiterRes; read: unknown }>(async (key, callers) => {
    if (!reads) return { res: await consumed(limiter, key, callers), read: undefined };
    const storeKey = limiter.getKey(key);
    reads.delete(storeKey);
    const res = await consumed(limiter, key, callers);
    const read = reads.get(storeKey);
    reads.delete(storeKey);
    return { res, read };
  });
  return async (key) => {
    const { result, index, callers } = await calls.join(key);
    return { retryAfter: verdict(limiter, result.res, index, callers), read: result.read };
  };
}

/**
 * The counter pool as rate-limiter-flexible's store client. Its upsert becomes
 * `with taken as (<upsert … returning points, expire>) select taken.*, set_config('synchronous_commit', 'off', true)
 * [, (<read>) as read] from taken`: the statement's own transaction commits without waiting for the disk (a
 * setting that ends with it, so no session of a transaction pooler keeps it), and the read, if any, costs no
 * round trip of its own and sees the same snapshot. Its value goes to `reads` under the limiter's key (the
 * upsert's first value); the limiter reads only `points` and `expire`, as before.
 */
export function counterStore(pool: Pool, read?: string, reads?: Map<string, unknown>): Pick<Pool, 'query'> {
  const query = async (config: QueryConfig) => {
    if (!/^\s*insert\b/i.test(config.text)) return pool.query(config);
    const upsert = config.text.trim().replace(/;$/, '');
    const extra = read ? `, (${read}) as read` : '';
    const result = await pool.query({
      ...config,
      name: config.name && `${config.name}+${read ? 'read' : 'async'}`,
      text: `with taken as (${upsert}) select taken.*, set_config('synchronous_commit', 'off', true) as synchronous_commit${extra} from taken`,
    });
    if (reads) reads.set(String(config.values?.[0]), result.rows[0]?.read);
    return result;
  };
  return { query } as unknown as Pick<Pool, 'query'>;
}

/**
 * Every authenticated /v1 request, per principal (user or bot, whichever credential it uses). On PostgreSQL its
 * upsert also reads the auth epoch, which `admitCaller` (lib/pipeline/authenticate.ts) applies.
 */
export const apiLimiter = new Limiter(
  'api',
  () => settings().RATE_LIMIT_REQUESTS,
  () => settings().RATE_LIMIT_WINDOW_SECONDS,
  AUTH_EPOCH_QUERY,
);

/** Sign-in attempts, per client address and per email. */
export const signInLimiter = new Limiter(
  'signin',
  () => settings().SIGNIN_RATE_LIMIT,
  () => settings().SIGNIN_RATE_LIMIT_WINDOW_SECONDS,
);

/** Unauthenticated endpoints (device login, SCIM before its token checks out), per client address. */
export const anonymousLimiter = new Limiter(
  'anon',
  () => settings().ANON_RATE_LIMIT,
  () => settings().ANON_RATE_LIMIT_WINDOW_SECONDS,
);

/** Failed authentication (a credential that does not check out), per client address; successes never count. */
export const authFailureLimiter = new Limiter(
  'authfail',
  () => settings().AUTH_FAILURE_RATE_LIMIT,
  () => settings().AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS,
);
