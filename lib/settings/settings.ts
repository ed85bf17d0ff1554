import type { z } from 'zod';
import { DECLARATIONS } from './declarations';
import type { Setting } from './kinds';

export { DECLARATIONS, DEFAULT_RETRY_SCHEDULE } from './declarations';
export { parseRetrySchedule } from './kinds';

type Declarations = typeof DECLARATIONS;
type SettingName = keyof Declarations;
/** The typed settings: each variable's value after its kind's parse, or its default. */
export type Settings = { readonly [K in SettingName]: z.output<Declarations[K]['schema']> };

/** One line per refused variable: its name, what it got and what it takes. */
export class SettingsError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'SettingsError';
  }
}

function refusal(name: string, declaration: Setting<unknown>, raw: string): string {
  const got = declaration.secret ? `a value of ${raw.length} characters (not shown)` : JSON.stringify(raw);
  return `Setting ${name} refused: it is ${got}; it takes ${declaration.takes} (README.md, Configuration).`;
}

/** Parses `env` against every declaration; throws a SettingsError naming each bad variable. An empty value is unset. */
export function readSettings(env: Record<string, string | undefined> = process.env): Settings {
  const values: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [name, declaration] of Object.entries(DECLARATIONS) as [string, Setting<unknown>][]) {
    const raw = env[name] || undefined;
    const parsed = declaration.schema.safeParse(raw ?? declaration.fallback);
    if (parsed.success) values[name] = parsed.data;
    else refused.push(refusal(name, declaration, raw ?? ''));
  }
  if (refused.length > 0) throw new SettingsError(refused);
  return values as Settings;
}

let current: Settings | null = null;

/**
 * The settings, read from the environment on first use (server/check-settings.ts does it first, at start). The
 * browser has no such environment: code shared with it (a zod schema's refinement) asks only on the server.
 */
export function settings(): Settings {
  if (typeof window !== 'undefined') throw new Error('The server settings are not read in the browser.');
  return (current ??= readSettings());
}

/** Forgets what was read, so the next `settings()` reads the environment again: for unit tests that change it. */
export function resetSettings(): void {
  current = null;
}
