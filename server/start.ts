import { closeDb, DataDirLockedError, getDb, SchemaFloorError } from '../lib/db/client';
import { flushApiKeyUses } from '../lib/auth/last-used';
import { startBackgroundJobs, stopBackgroundJobs } from '../lib/jobs/runner';
import { watchStalls } from '../lib/observability/stalls';
import { demoSeedWanted, seedDemoData } from './demo/seed';
import { registerHooks } from './hooks';
import { announceSetup } from './setup-url';
import { BACKGROUND_JOBS } from './jobs';
import { settings } from '../lib/settings/settings';

async function start() {
  // What a slow request's log line says was going on meanwhile (GC, a held loop, background passes).
  watchStalls();
  try {
    const db = await getDb();
    if (demoSeedWanted()) await seedDemoData(db);
    await announceSetup(db);
    // Not while Next is still loading its routes: a first pass whose connect waits out DATABASE_CONNECT_TIMEOUT_MS
    // behind a busy event loop would trip the breaker, and the first requests would get 503 from a healthy database.
    setTimeout(() => startBackgroundJobs(BACKGROUND_JOBS), settings().BACKGROUND_START_DELAY_MS).unref();
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof SchemaFloorError) {
      console.error(`\n${err.message}\n`);
      process.exit(1);
    }
    // Anything else (PostgreSQL not up yet): keep serving; /v1/health answers 503 until it is.
    console.error('Database not ready at start:', err);
  }
  const close = async () => {
    // Each job hands back what this instance still holds, for the instances that stay (docs/deploy.md, Restarts and signals).
    await stopBackgroundJobs();
    await flushApiKeyUses().catch(() => {});
    await closeDb().catch(() => {});
  };
  // Under scripts/start.mjs the server drains its requests first, then calls this; under bare `next start`, exit here.
  (globalThis as { __svcCloseApp?: () => Promise<void> }).__svcCloseApp = close;
  if (settings().SVC_CUSTOM_SERVER) return;
  const shutdown = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

// Before any request: the pipeline and sign-in refuse to run without the features' answers.
registerHooks();
await start();
