import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { getCounterPool } from '../db/client';
import { Coalescer } from '../db/coalesce';

/** Consumes one point of `key`. Resolves null when allowed, else the seconds to wait. */
type Consume = (key: string) => Promise<number | null>;

/**
 * Fixed-window limiter over rate-limiter-flexible. On PostgreSQL (several instances) the counters live in
 * the shared `rate_limits` table, written through the pool whose commits do not wait for the disk
 * (`getCounterPool`), with a per-instance memory limiter as insurance if the database hiccups;
 * on the embedded database (one process) they live in memory. RATE_LIMIT_STORE=memory forces memory.
 */
export class Limiter {
  private store?: Promise<Consume>;

  constructor(
    readonly name: string,
    private readonly points: () => number,
    private readonly durationSeconds: () => number,
  ) {}

  private async create(): Promise<Consume> {
    // RATE_LIMIT_NAMESPACE separates deployments (or test servers) that share one database.
    const options = {
      keyPrefix: `${process.env.RATE_LIMIT_NAMESPACE ?? ''}${this.name}`,
      points: this.points(),
      duration: this.durationSeconds(),
    };
    const pool = process.env.RATE_LIMIT_STORE === 'memory' ? null : await getCounterPool();
    if (!pool) return consumeOne(new RateLimiterMemory(options));
    // Concurrent requests of one key take their points in one upsert, not one each.
    return consumeBatched(
      new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true, // created by the drizzle migrations
        clearExpiredByTimeout: false,
        // Keys that used up their window are refused from memory without another round trip.
        inMemoryBlockOnConsumed: options.points,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
    );
  }

  /** Consumes one point. Returns null when allowed, else the seconds to wait. */
  async consume(key: string): Promise<number | null> {
    this.store ??= this.create();
    return (await this.store)(key);
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
  return async (key) => verdict(limiter, await consumed(limiter, key, 1), 0, 1);
}

/**
 * Callers of one key that arrive while its previous call is in flight take their points together in the
 * next call (lib/db/coalesce.ts): n points, one round trip, and a verdict each.
 */
export function consumeBatched(limiter: RateLimiterAbstract): Consume {
  const calls = new Coalescer<string, RateLimiterRes>((key, callers) => consumed(limiter, key, callers));
  return async (key) => {
    const { result, index, callers } = await calls.join(key);
    return verdict(limiter, result, index, callers);
  };
}

const envInt = (name: string, fallback: number) => () => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** Every authenticated /v1 request, per principal (user or bot, whichever credential it uses). */
export const apiLimiter = new Limiter(
  'api',
  envInt('RATE_LIMIT_REQUESTS', 1200),
  envInt('RATE_LIMIT_WINDOW_SECONDS', 60),
);

/** Sign-in attempts, per client address and per email. */
export const signInLimiter = new Limiter(
  'signin',
  envInt('SIGNIN_RATE_LIMIT', 10),
  envInt('SIGNIN_RATE_LIMIT_WINDOW_SECONDS', 60),
);

/** Unauthenticated endpoints (device login, SCIM before its token checks out), per client address. */
export const anonymousLimiter = new Limiter(
  'anon',
  envInt('ANON_RATE_LIMIT', 60),
  envInt('ANON_RATE_LIMIT_WINDOW_SECONDS', 60),
);

/** Failed authentication (a credential that does not check out), per client address; successes never count. */
export const authFailureLimiter = new Limiter(
  'authfail',
  envInt('AUTH_FAILURE_RATE_LIMIT', 100),
  envInt('AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS', 60),
);
