import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { getPgPool } from '../db/client';

/**
 * Fixed-window limiter over rate-limiter-flexible. On PostgreSQL (several instances) the counters live in
 * the shared `rate_limits` table, with a per-instance memory limiter as insurance if the database hiccups;
 * on the embedded database (one process) they live in memory. RATE_LIMIT_STORE=memory forces memory.
 */
export class Limiter {
  private limiter?: Promise<RateLimiterAbstract>;

  constructor(
    readonly name: string,
    private readonly points: () => number,
    private readonly durationSeconds: () => number,
  ) {}

  private async create(): Promise<RateLimiterAbstract> {
    // RATE_LIMIT_NAMESPACE separates deployments (or test servers) that share one database.
    const options = {
      keyPrefix: `${process.env.RATE_LIMIT_NAMESPACE ?? ''}${this.name}`,
      points: this.points(),
      duration: this.durationSeconds(),
    };
    const pool = process.env.RATE_LIMIT_STORE === 'memory' ? null : await getPgPool();
    if (!pool) return new RateLimiterMemory(options);
    return new RateLimiterPostgres({
      ...options,
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true, // created by the drizzle migrations
      clearExpiredByTimeout: false,
      // Keys that used up their window are refused from memory without another round trip.
      inMemoryBlockOnConsumed: options.points,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }

  private store(): Promise<RateLimiterAbstract> {
    this.limiter ??= this.create();
    return this.limiter;
  }

  /** Consumes one point. Returns null when allowed, else the seconds to wait. */
  async consume(key: string): Promise<number | null> {
    try {
      await (await this.store()).consume(key, 1);
      return null;
    } catch (res) {
      if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw res;
    }
  }

  async allow(key: string): Promise<boolean> {
    return (await this.consume(key)) === null;
  }
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
