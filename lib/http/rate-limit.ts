import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Fixed-window limiter over rate-limiter-flexible; the store is memory in one process and shared across instances when configured. */
export class Limiter {
  private limiter?: RateLimiterAbstract;

  constructor(
    readonly name: string,
    private readonly points: () => number,
    private readonly durationSeconds: () => number,
  ) {}

  private get store(): RateLimiterAbstract {
    this.limiter ??= new RateLimiterMemory({ keyPrefix: this.name, points: this.points(), duration: this.durationSeconds() });
    return this.limiter;
  }

  /** Consumes one point. Returns null when allowed, else the seconds to wait. */
  async consume(key: string): Promise<number | null> {
    try {
      await this.store.consume(key, 1);
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
export const apiLimiter = new Limiter('api', envInt('RATE_LIMIT_REQUESTS', 1200), envInt('RATE_LIMIT_WINDOW_SECONDS', 60));

/** Sign-in attempts, per client address and per email. */
export const signInLimiter = new Limiter('signin', envInt('SIGNIN_RATE_LIMIT', 10), envInt('SIGNIN_RATE_LIMIT_WINDOW_SECONDS', 60));

/** Unauthenticated endpoints (device login, SCIM before its token checks out), per client address. */
export const anonymousLimiter = new Limiter('anon', envInt('ANON_RATE_LIMIT', 60), envInt('ANON_RATE_LIMIT_WINDOW_SECONDS', 60));
