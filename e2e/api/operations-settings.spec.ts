import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { startApp } from '../support/spawn-server';

// The real start path (scripts/start.mjs, Next, instrumentation.ts) with one bad value: it must stop before it
// listens, exit non-zero within seconds, and say in one line which variable, what it got and what it takes.
const BAD: [name: string, value: string, takes: string][] = [
  ['QUEUE_MAX_IN_FLIGHT', 'abc', 'a whole number, 1 or more'],
  ['PORT', '-1', 'a whole number, from 1 to 65535'],
  ['DATABASE_POOL_SIZE', '0', 'a whole number, 1 or more'],
];

test.describe('a bad setting stops the start', () => {
  test.describe.configure({ timeout: 60_000 });

  for (const [name, value, takes] of BAD) {
    test(`${name}=${value} exits 1 within seconds, printing one line that names it`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-settings-'));
      const started = Date.now();
      const app = startApp({ DATA_DIR: dir, PORT: String(E2E.port + 57), SEED_DEMO: '0', [name]: value });
      try {
        const code = await new Promise<number | null>((resolve) => app.child.once('exit', resolve));
        const seconds = (Date.now() - started) / 1000;
        expect(code).toBe(1);
        expect(seconds).toBeLessThan(20);
        const naming = app
          .output()
          .split('\n')
          .filter((line) => line.includes(name));
        expect(naming).toEqual([
          `Setting ${name} refused: it is "${value}"; it takes ${takes} (README.md, Configuration).`,
        ]);
        expect(app.output()).not.toContain('Ready on');
        console.log(`${name}=${value}: exit ${code} after ${seconds.toFixed(1)} s`);
      } finally {
        await app.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
