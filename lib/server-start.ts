import { closeDb, DataDirLockedError, getDb, SchemaFloorError } from './db/client';
import { flushApiKeyUses } from './auth/last-used';
import { stopBackgroundJobs } from './background-jobs';
import { startHousekeeping } from './db/housekeeping';
import { demoSeedWanted, seedDemoData } from './db/seed';
import { releaseEmailLeases, startMailer } from './notifications/mailer';
import { releaseWebhookLeases, startWebhookWorker } from './webhooks/worker';
import { releaseAuditVerifications } from './audit/verification-service';

async function start() {
  try {
    const db = await getDb();
    if (demoSeedWanted()) await seedDemoData(db);
    // Not while Next is still loading its routes: a first pass whose connect waits out DATABASE_CONNECT_TIMEOUT_MS
    // behind a busy event loop would trip the breaker, and the first requests would get 503 from a healthy database.
    const startBackgroundJobs = () => {
      startHousekeeping();
      startWebhookWorker();
      startMailer();
    };
    setTimeout(startBackgroundJobs, Number(process.env.BACKGROUND_START_DELAY_MS ?? 5000)).unref();
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof SchemaFloorError) {
      console.error(`\n${err.message}\n`);
      process.exit(1);
    }
    // Anything else (PostgreSQL not up yet): keep serving; /v1/health answers 503 until it is.
    console.error('Database not ready at start:', err);
  }
  const close = async () => {
    stopBackgroundJobs();
    // What this instance still holds goes back now, for the instances that stay (docs/operations.md).
    await Promise.allSettled([releaseWebhookLeases(), releaseEmailLeases(), releaseAuditVerifications()]);
    await flushApiKeyUses().catch(() => {});
    await closeDb().catch(() => {});
  };
  // Under scripts/start.mjs the server drains its requests first, then calls this; under bare `next start`, exit here.
  (globalThis as { __svcCloseApp?: () => Promise<void> }).__svcCloseApp = close;
  if (process.env.SVC_CUSTOM_SERVER === '1') return;
  const shutdown = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (process.env.NEXT_PHASE !== 'phase-production-build') await start();
