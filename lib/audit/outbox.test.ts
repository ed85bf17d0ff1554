import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['lib', 'server', 'app', 'cli', 'scripts', 'bench'];
// A write of the outbox's table, as SQL text or through drizzle.
const WRITE =
  /(insert\s+into|update|delete\s+from)\s+(webhook_deliveries\b|\$\{t\.webhookDeliveries\})|\.(insert|update|delete)\(t\.webhookDeliveries\)/i;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    // Tests and their fixtures (server/testing) may write rows as they need them.
    if (entry.isDirectory())
      return entry.name === 'node_modules' || file === path.join('server', 'testing') ? [] : sources(file);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('the outbox table', () => {
  it('is written only by lib/webhooks and the outbox insert: audit and data events are queued through insertDeliveries', () => {
    const writers = ROOTS.flatMap(sources)
      .filter((file) => WRITE.test(readFileSync(file, 'utf8')))
      .map((file) => file.split(path.sep).join('/'));
    expect(writers.length).toBeGreaterThan(0);
    expect(writers).toContain('lib/audit/outbox.ts');
    expect(writers.filter((file) => !file.startsWith('lib/webhooks/') && file !== 'lib/audit/outbox.ts')).toEqual([]);
  });
});
