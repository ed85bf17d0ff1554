import { describe, expect, it, vi } from 'vitest';
import { DECLARATIONS, readSettings, settings, SettingsError } from './settings';

/** The lines a refusal prints for `env`, or [] when every value is taken. */
function refusals(env: Record<string, string>): string[] {
  try {
    readSettings(env);
    return [];
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    return err.lines;
  }
}

describe('settings', () => {
  it('reads an empty environment as every default, typed', () => {
    const s = readSettings({});
    expect(s.PORT).toBe(3000);
    expect(s.QUEUE_MAX_IN_FLIGHT).toBe(200);
    expect(s.DATABASE_POOL_SIZE).toBe(10);
    expect(s.WEBHOOK_ALLOW_LOOPBACK).toBe(false);
    expect(s.API_KEY_USAGE_COUNTING).toBe(true);
    expect(s.WEBHOOK_RETRY_SCHEDULE).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(s.TRUST_PROXY).toBe(0);
    expect(s.ALLOWED_ORIGINS).toEqual([]);
    expect(s.DATABASE_URL).toBeUndefined();
    expect(s.SEED_DEMO).toBeUndefined();
  });

  it('takes each default it declares (a default its own kind refused would stop every start)', () => {
    for (const [name, declaration] of Object.entries(DECLARATIONS)) {
      if (declaration.fallback === undefined) continue;
      expect(refusals({ [name]: declaration.fallback }), name).toEqual([]);
    }
  });

  it.each([
    ['QUEUE_MAX_IN_FLIGHT', 'abc', 'it takes a whole number, 1 or more'],
    ['PORT', '-1', 'it takes a whole number, from 1 to 65535'],
    ['PORT', '70000', 'it takes a whole number, from 1 to 65535'],
    ['DATABASE_POOL_SIZE', '0', 'it takes a whole number, 1 or more'],
    ['DATABASE_POOLER', 'session', 'it takes one of transaction, none'],
    ['SILENCE_RETENTION_SECONDS', '1.5', 'it takes a whole number, 0 or more'],
    ['SILENCE_RETENTION_SECONDS', '-5', 'it takes a whole number, 0 or more'],
    ['QUEUE_POLL_MS', '3000000000', 'it takes a whole number, from 1 to 2147483647'],
    ['WEBHOOK_ALLOW_LOOPBACK', 'true', 'it takes 1 (on) or 0 (off)'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,,5m', 'it takes delays such as 5s,5m,30m,2h'],
    ['TRUST_PROXY', 'maybe', 'it takes true (one proxy), a whole number of proxies up to 99, or false'],
    ['APP_URL', 'console.example.com', 'it takes a URL starting http:// or https://'],
    ['LOG_LEVEL', 'verbose', 'it takes one of trace, debug, info, warn, error, fatal, silent'],
  ])('refuses %s=%s in one line naming it, what it got and what it takes', (name, value, takes) => {
    const lines = refusals({ [name]: value });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Setting ${name} refused: it is ${JSON.stringify(value)}; ${takes}`);
  });

  it('names every refused variable, one line each, and never prints a secret value', () => {
    const lines = refusals({ QUEUE_POLL_MS: 'soon', DATABASE_URL: 'mysql://svc:hunter2@db/svc', PORT: '8080' });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^Setting DATABASE_URL refused: it is a value of 26 characters \(not shown\); it takes a URL/,
    );
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(lines[1]).toMatch(/^Setting QUEUE_POLL_MS refused: it is "soon"/);
  });

  it('is never read in the browser, whose form checks ask the server no setting', () => {
    vi.stubGlobal('window', {});
    try {
      expect(() => settings()).toThrow(/not read in the browser/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reads an empty value as unset, and values as their types', () => {
    const s = readSettings({
      PORT: '',
      SHUTDOWN_GRACE_MS: '',
      SILENCE_RETENTION_SECONDS: '0',
      TRUST_PROXY: 'true',
      ALLOWED_ORIGINS: ' https://a.example , ,https://b.example',
      WEBHOOK_RETRY_SCHEDULE: '300ms,1s',
      SEED_DEMO: '0',
      DATABASE_QUERY_TIMEOUT_MS: '0',
    });
    expect(s.PORT).toBe(3000);
    expect(s.SHUTDOWN_GRACE_MS).toBeUndefined();
    expect(s.SILENCE_RETENTION_SECONDS).toBe(0);
    expect(s.TRUST_PROXY).toBe(1);
    expect(readSettings({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(readSettings({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(0);
    expect(s.ALLOWED_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(s.WEBHOOK_RETRY_SCHEDULE).toEqual([300, 1_000]);
    expect(s.SEED_DEMO).toBe(false);
    expect(s.DATABASE_QUERY_TIMEOUT_MS).toBe(0);
  });
});
