import { z } from 'zod';

/**
 * One environment variable: the zod schema its text must pass, what it takes (the refusal's words), the default
 * text used when it is unset or empty, and the line of the README's configuration table that explains it.
 */
export type Setting<T> = {
  schema: z.ZodType<T>;
  takes: string;
  /** The default as the README's Default column writes it; absent when unset means "off" or depends on others. */
  fallback?: string;
  /** The README row's Meaning cell, word for word (the README's test compares them). */
  readme: string;
  /** A refusal names the variable but not its value (URLs with credentials, tokens). */
  secret?: boolean;
};

// setTimeout fires at once (with a warning) past 2^31 - 1 ms, so no wait or interval may be longer.
const MAX_MS = 2_147_483_647;

const digits = (min: number, max: number) =>
  z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max));

/** A whole number from `min`, at most `max` (a count, a limit, a port). */
export function count(min: number, fallback: number, readme: string, max = Number.MAX_SAFE_INTEGER): Setting<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
  return { schema: digits(min, max), takes: `a whole number, ${range}`, fallback: String(fallback), readme };
}

/** Milliseconds (a wait, an interval, a timeout), `min` or more; absent `fallback`: unset is undefined. */
export function duration(min: number, fallback: number, readme: string): Setting<number>;
export function duration(min: number, fallback: undefined, readme: string): Setting<number | undefined>;
export function duration(min: number, fallback: number | undefined, readme: string): Setting<number | undefined> {
  const schema = fallback === undefined ? digits(min, MAX_MS).optional() : digits(min, MAX_MS);
  const takes = `a whole number, from ${min} to ${MAX_MS}`;
  return { schema, takes, fallback: fallback === undefined ? undefined : String(fallback), readme };
}

/** `1` (on) or `0` (off); absent `fallback`: unset is undefined, for a default that depends on other settings. */
export function flag(fallback: boolean, readme: string): Setting<boolean>;
export function flag(fallback: undefined, readme: string): Setting<boolean | undefined>;
export function flag(fallback: boolean | undefined, readme: string): Setting<boolean | undefined> {
  const bit = z.enum(['0', '1']).transform((value) => value === '1');
  return {
    schema: fallback === undefined ? bit.optional() : bit,
    takes: '1 (on) or 0 (off)',
    fallback: fallback === undefined ? undefined : fallback ? '1' : '0',
    readme,
  };
}

/** Any text; absent `fallback`: unset is undefined. */
export function text(fallback: string, readme: string): Setting<string>;
export function text(fallback: undefined, readme: string, secret?: boolean): Setting<string | undefined>;
export function text(fallback: string | undefined, readme: string, secret = false): Setting<string | undefined> {
  return {
    schema: fallback === undefined ? z.string().optional() : z.string(),
    takes: 'any text',
    fallback,
    readme,
    secret,
  };
}

/** One of `values`; absent `fallback`: unset is undefined. */
export function oneOf<const V extends readonly [string, ...string[]]>(
  values: V,
  fallback: V[number],
  readme: string,
): Setting<V[number]>;
export function oneOf<const V extends readonly [string, ...string[]]>(
  values: V,
  fallback: undefined,
  readme: string,
): Setting<V[number] | undefined>;
export function oneOf(values: readonly [string, ...string[]], fallback: string | undefined, readme: string) {
  const schema = z.enum(values);
  return {
    schema: fallback === undefined ? schema.optional() : schema,
    takes: `one of ${values.join(', ')}`,
    fallback,
    readme,
  };
}

/** A URL whose scheme is one of `schemes` (`http`, `postgres`…), or unset. */
export function url(schemes: readonly string[], readme: string, secret = false): Setting<string | undefined> {
  const schema = z
    .string()
    .refine((value) => URL.canParse(value) && schemes.includes(new URL(value).protocol.slice(0, -1)))
    .optional();
  return { schema, takes: `a URL starting ${schemes.map((s) => `${s}://`).join(' or ')}`, readme, secret };
}

/** Comma-separated entries, blanks dropped; unset is none. */
export function list(readme: string): Setting<string[]> {
  const schema = z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    );
  return { schema, takes: 'comma-separated entries', readme };
}

/** TRUST_PROXY: how many proxies stand in front. `true`/`yes`/`on` is one, N is N, unset or `false`/`no`/`off` none. */
export function proxyCount(readme: string): Setting<number> {
  const schema = z
    .string()
    .optional()
    .refine((value) => value === undefined || /^(true|yes|on|false|no|off|\d{1,2})$/i.test(value.trim()))
    .transform((value) => {
      const word = (value ?? '').trim();
      if (/^(true|yes|on)$/i.test(word)) return 1;
      return /^\d{1,2}$/.test(word) ? Number(word) : 0;
    });
  return { schema, takes: 'true (one proxy), a whole number of proxies up to 99, or false', readme };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,2h` as milliseconds; a malformed schedule is a configuration error, refused loudly at start. */
export function parseRetrySchedule(text: string): number[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`WEBHOOK_RETRY_SCHEDULE: "${part}" is not a delay such as 5s, 30m or 2h.`);
    return Number(match[1]) * UNIT_MS[match[2]];
  });
}

/** Delays such as `5s,5m,30m,2h`, as milliseconds. */
export function delays(fallback: string, readme: string): Setting<number[]> {
  const schema = z.string().transform((value, ctx) => {
    try {
      return parseRetrySchedule(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not delays' });
      return z.NEVER;
    }
  });
  return { schema, takes: 'delays such as 5s,5m,30m,2h (units ms, s, m, h, d)', fallback, readme };
}
