import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('.', import.meta.url)),
      // `server-only` throws outside React Server Components; unit tests import such modules directly.
      'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
    },
  },
  test: {
    include: [
      'lib/**/*.test.ts',
      'components/**/*.test.ts',
      'cli/**/*.test.ts',
      'app/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    // The settings module reads the environment once; tests change it between cases (server/testing).
    setupFiles: ['server/testing/settings-follow-env.ts'],
    // One migrated embedded database per run, which each file's empty one starts as a copy of.
    globalSetup: ['server/testing/embedded-template.ts'],
    // Two files at once, where Vitest's default on two cores is one: most files wait on a database or a child
    // process, and each has its own (databases named by process, ports chosen by the system).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
