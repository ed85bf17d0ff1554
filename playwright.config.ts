import path from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { baseURL, dataDir, E2E, fixturesFile, limitedDataDir, serverLog } from './e2e/support/env';

const chromium = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

// Every test request comes from 127.0.0.1: the failed-authentication limit is tested on servers of its own.
// Sessions signed in at the start of a long run still create keys at its end; the real window (default 900 s) is
// tested on servers that e2e/api/sudo*.spec.ts spawns.
const serverEnv = [
  `NEXTAUTH_SECRET=${E2E.secret}`,
  `ENCRYPTION_KEY=${E2E.encryptionKey}`,
  'LAST_USED_FLUSH_MS=500',
  'AUTH_FAILURE_RATE_LIMIT=1000000',
  'SUDO_WINDOW_SECONDS=86400',
  // Webhooks and email: receivers on 127.0.0.1 and a short retry schedule. The loops poll at their default (1 s):
  // what this server queues, and each retry as it falls due, wakes them at once.
  'WEBHOOK_ALLOW_LOOPBACK=1',
  'WEBHOOK_RETRY_SCHEDULE=300ms,600ms,900ms',
  // A pass every 2 s (e2e/api/notifications.spec.ts waits for its reminders): at 300 ms an idle server spent 28 ms
  // of CPU a second on it, and three of them run beside each other in CI.
  'KEY_REMINDERS_EVERY_MS=2000',
  `SMTP_URL=smtp://127.0.0.1:${E2E.port + 60}`,
  'MAIL_FROM=svc-console-e2e@localhost',
];

// A second server with tiny limits, so rate limiting is tested without slowing the main one. The browser suite never
// calls it: its run (scripts/test-all.sh) sets E2E_LIMITED_SERVER=off, one idle server fewer on a busy machine.
const limitedServer: NonNullable<PlaywrightTestConfig['webServer']> =
  process.env.E2E_LIMITED_SERVER === 'off'
    ? []
    : [
        {
          command: [
            'bash e2e/support/serve.sh',
            E2E.limitedPort,
            limitedDataDir,
            path.join(E2E.stateDir, 'fixtures-limited.json'),
            path.join(E2E.stateDir, 'server-limited.log'),
            ...serverEnv,
            'RATE_LIMIT_REQUESTS=5',
            'RATE_LIMIT_WINDOW_SECONDS=60',
            'SIGNIN_RATE_LIMIT=3',
            // On PostgreSQL both servers share one database; this one's counters must not see the main server's.
            'RATE_LIMIT_STORE=memory',
            // No background jobs within a run (a day's delay): its tests need none, and on PostgreSQL the main
            // server delivers what either queued. An idle server's passes cost a tenth of a core on a busy machine.
            'BACKGROUND_START_DELAY_MS=86400000',
          ].join(' '),
          url: `http://127.0.0.1:${E2E.limitedPort}/v1/health`,
          timeout: 120_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
        },
      ];

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  // A second run beside this one (scripts/test-all.sh, TEST_POSTGRES_URL) keeps its traces apart.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  // A failed test keeps its trace (each action's DOM snapshot, the network, the console) and a screenshot. The
  // trace's screencast is off: it was a quarter of the browser suite's CPU (docs/testing.md), and the snapshots show
  // the same pages.
  use: {
    baseURL,
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
  },
  projects: [
    // An API test that runs the CLI or a server of its own takes ten seconds alone and three times that beside the
    // other suites on two cores; its own waits say what they wait for.
    { name: 'api', testDir: './e2e/api', timeout: 60_000 },
    {
      name: 'ui',
      testDir: './e2e/ui',
      // A browser test does several page loads; in CI the API suites run beside it on two cores, some machines at
      // half speed, where 30 s ran out for tests that take 15 s alone. Their own waits say what they wait for.
      timeout: 90_000,
      expect: { timeout: 15_000 },
      use: { browserName: 'chromium', launchOptions: chromium, viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: [
    {
      command: [
        'bash e2e/support/serve.sh',
        E2E.port,
        dataDir,
        fixturesFile,
        serverLog,
        ...serverEnv,
        'RATE_LIMIT_REQUESTS=100000',
        'SIGNIN_RATE_LIMIT=1000',
        // e2e/api/bad-input.spec.ts sends hundreds of device-login requests from one address.
        'ANON_RATE_LIMIT=100000',
      ].join(' '),
      url: `${baseURL}/v1/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    ...limitedServer,
  ],
});
