import path from 'node:path';
import { defineConfig } from '@playwright/test';
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
  // Webhooks and email (issue 33): receivers on 127.0.0.1, a short retry schedule, quick passes. Both servers
  // take them: on PostgreSQL they share one database, so either may deliver what the other queued.
  'WEBHOOK_ALLOW_LOOPBACK=1',
  'WEBHOOK_RETRY_SCHEDULE=300ms,600ms,900ms',
  'WEBHOOK_POLL_MS=100',
  'KEY_REMINDERS_EVERY_MS=300',
  `SMTP_URL=smtp://127.0.0.1:${E2E.port + 60}`,
  'MAIL_FROM=svc-console-e2e@localhost',
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
  use: { baseURL, trace: 'retain-on-failure' },
  projects: [
    { name: 'api', testDir: './e2e/api' },
    {
      name: 'ui',
      testDir: './e2e/ui',
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
    {
      // A second server with tiny limits, so rate limiting is tested without slowing the main one.
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
      ].join(' '),
      url: `http://127.0.0.1:${E2E.limitedPort}/v1/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
