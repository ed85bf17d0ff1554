import os from 'node:os';
import path from 'node:path';

/** Where the test servers run and keep their state; the same in the runner and every worker. */
export const E2E = {
  port: Number(process.env.E2E_PORT ?? 3210),
  limitedPort: Number(process.env.E2E_LIMITED_PORT ?? 3211),
  stateDir: process.env.E2E_STATE_DIR ?? path.join(os.tmpdir(), 'svc-e2e'),
  secret: 'e2e-only-nextauth-secret-0123456789abcdef',
  password: 'correct-horse-battery',
  // One key for every test server, so instances on one PostgreSQL open each other's sealed TOTP secrets.
  encryptionKey: 'ZTJlLW9ubHktZW5jcnlwdGlvbi1rZXktMzItYnl0ZXM',
};

export const baseURL = `http://127.0.0.1:${E2E.port}`;
export const limitedURL = `http://127.0.0.1:${E2E.limitedPort}`;
export const dataDir = path.join(E2E.stateDir, 'data');
export const limitedDataDir = path.join(E2E.stateDir, 'data-limited');
export const fixturesFile = path.join(E2E.stateDir, 'fixtures.json');
export const serverLog = path.join(E2E.stateDir, 'server.log');
