// npm run drill:pooler: two built instances behind Debian's PgBouncer in transaction mode (DATABASE_URL through
// it, DATABASE_DIRECT_URL straight to PostgreSQL) under a bounded mixed load, revocations made on one instance
// and tried on the other's next request, webhooks and queue messages delivered from either (the subscription's
// cap measured at its receiver), and what each kind of request asks of
// PostgreSQL (docs/deploy.md "Capacity"). Exits 1 when a target is missed: any non-2xx, any revoked key
// accepted, any webhook message not delivered. Environment: PGURL_BASE (postgres://postgres@127.0.0.1:5432),
// DRILL_PORT (5270: PgBouncer, then the two instances and the two receivers), DRILL_REQUESTS (2000); the instances
// inherit the rest (RATE_LIMIT_REDIS_URL: the same drill with the counters in Redis).
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Caller } from './drill/caller';
import { meter, perRequest } from './drill/measure';
import { ensurePgbouncer, startPgbouncer } from './drill/pgbouncer';
import { attemptsMadeBy, sharedSecrets, startInstance, startReceiver } from './drill/instances';
import { capacity, demoIds, kinds, runLoad, type Kind } from './drill/load';
import { drillQueues } from './drill/queues';

const PG_BASE = process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432';
const PORT = Number(process.env.DRILL_PORT ?? 5270);
const REQUESTS = Number(process.env.DRILL_REQUESTS ?? 2000);
const REVOCATIONS = 20;
const METRICS_TOKEN = 'drill-pooler-metrics';
const PASSWORD = 'correct-horse-battery';

if (!existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) {
  console.error('No production build: run `npm run build` first.');
  process.exit(2);
}
ensurePgbouncer();
const upstream = new URL(PG_BASE);
const database = `pooler_drill_${process.pid}`;
const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
await admin.connect();
await admin.query(`create database ${database}`);
const cleanup: (() => Promise<unknown>)[] = [];
let failed = false;
try {
  const pooler = await startPgbouncer(PORT, {
    host: upstream.hostname,
    port: Number(upstream.port || 5432),
    user: decodeURIComponent(upstream.username || 'postgres'),
  });
  cleanup.push(pooler.stop);
  const receiver = await startReceiver(PORT + 3);
  cleanup.push(receiver.close);
  const env = {
    ...sharedSecrets(),
    DATABASE_URL: pooler.url(database),
    DATABASE_DIRECT_URL: `${PG_BASE}/${database}`,
    // DRILL_DATABASE_POOLER=none shows what the pooler did before: named statements, 500s.
    DATABASE_POOLER: process.env.DRILL_DATABASE_POOLER ?? 'transaction',
    SEED_DEMO: '1',
    RATE_LIMIT_REQUESTS: '1000000',
    // With RATE_LIMIT_REDIS_URL in the environment the instances count in Redis: a namespace of this run's own.
    RATE_LIMIT_NAMESPACE: `drill-${process.pid}-`,
    WEBHOOK_ALLOW_LOOPBACK: '1',
    WEBHOOK_POLL_MS: '200',
    BACKGROUND_START_DELAY_MS: '0',
    LAST_USED_FLUSH_MS: '1000',
    METRICS_TOKEN,
  };
  // Both start together: one migrates (on the direct URL, under its session lock) while the other waits.
  const [a, b] = await Promise.all([startInstance('A', PORT + 1, env), startInstance('B', PORT + 2, env)]);
  cleanup.push(a.stop, b.stop);
  const bob = await Caller.session(a.url, 'bob@acme.test', PASSWORD);
  const ada = await Caller.session(a.url, 'ada@acme.test', PASSWORD);
  const ids = await demoIds(bob);
  await ada.json('POST', `/v1/organizations/${ids.org}/webhooks`, { url: receiver.url, events: ['api_key.created'] });
  const { secret: botKey } = await ada.json<{ secret: string }>('POST', `/v1/organizations/${ids.org}/api-keys`, {
    name: 'drill reader',
  });
  const callers = (url: string) => ({ session: bob.on(url), key: Caller.bearer(url, botKey) });
  const onA = callers(a.url);
  const onB = callers(b.url);

  // The mixed load, alternating instances, 8 at a time.
  const load = await runLoad(REQUESTS, 8, (i) => (i % 2 ? onB : onA), ids);
  console.log(`\nMixed load through PgBouncer (transaction mode), ${REQUESTS} requests on two instances:`);
  for (const [kind, counts] of Object.entries(load.byKind))
    console.log(`  ${kind.padEnd(22)} ${counts.requests} requests, ${counts.failed} non-2xx`);
  for (const sample of load.failures.slice(0, 5)) console.log(`  e.g. ${sample}`);

  // Revocations: made through one instance, tried on the other's very next request (which had the key cached).
  let accepted = 0;
  for (let i = 0; i < REVOCATIONS; i++) {
    const [via, other] = i % 2 ? [onB, onA] : [onA, onB];
    const made = await via.session.json<{ secret: string; apiKey: { id: string } }>(
      'POST',
      `/v1/organizations/${ids.org}/api-keys`,
      { name: `drill revoke ${i}` },
    );
    const user = Caller.bearer(other.key.base, made.secret);
    if ((await user.call('GET', '/v1/organizations')).status !== 200) throw new Error('a new key was refused');
    const revoked = await via.session.call('DELETE', `/v1/organizations/${ids.org}/api-keys/${made.apiKey.id}`);
    if (revoked.status !== 204) throw new Error(`revocation answered ${revoked.status}`);
    if ((await user.call('GET', '/v1/organizations')).status !== 401) accepted++;
  }
  console.log(
    `\nRevocations on one instance tried on the other's next request: ${accepted} of ${REVOCATIONS} accepted`,
  );

  // Every api_key.created message (the load's creations and the revocations') delivered at least once.
  const expected = load.byKind['key creation'].requests - load.byKind['key creation'].failed + REVOCATIONS + 1;
  const deadline = Date.now() + 60_000;
  while (receiver.ids.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const delivered = receiver.ids.size;
  const [byA, byB] = await Promise.all([attemptsMadeBy(a, METRICS_TOKEN), attemptsMadeBy(b, METRICS_TOKEN)]);
  console.log(
    `\nWebhooks: ${delivered} of ${expected} messages delivered at least once ` +
      `(attempts: ${byA} by A, ${byB} by B)`,
  );

  // Queue deliveries from both instances through the pooler: the subscription's cap, measured at the receiver.
  const queues = await drillQueues([ada, ada.on(b.url)], ids, PORT + 4);
  console.log(
    `\nQueues: ${queues.delivered} of ${queues.published} messages delivered (${queues.duplicates} duplicates), ` +
      `at most ${queues.maxInFlight} in flight at the receiver (maxConcurrency ${queues.cap})`,
  );

  // What one request of each kind asks of PostgreSQL, on instance A alone, 4 at a time.
  const m = meter(admin, database, pooler, a.child.pid!);
  const idleStart = await m.snapshot();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const idle = m.between(idleStart, await m.snapshot());
  console.log('\nPer request, on PostgreSQL (idle background work subtracted):');
  console.log('  kind                   stmts  xacts commits  rows-written  wal-syncs  pg-cpu-ms  app-cpu-ms  ms');
  const per = 300;
  const costs = new Map<Kind, { pgCpuMs: number; appCpuMs: number; commits: number; walSyncs: number }>();
  for (const kind of Object.keys(kinds) as Kind[]) {
    const before = await m.snapshot();
    const phase = await runLoad(per, 4, () => onA, ids, kind);
    if (phase.failures.length) load.failures.push(...phase.failures);
    const f = perRequest(m.between(before, await m.snapshot()), idle, per);
    const rows = f.inserted + f.updated + f.deleted;
    costs.set(kind, f);
    console.log(
      `  ${kind.padEnd(22)} ${[f.statements, f.xacts, f.commits, rows, f.walSyncs, f.pgCpuMs, f.appCpuMs]
        .map((v) => v.toFixed(2).padStart(7))
        .join('    ')}    ${(phase.ms / per).toFixed(1)}`,
    );
  }
  console.log(capacity(costs));
  const nonOk = load.failures.length;
  console.log(
    `\nrequests ${REQUESTS + Object.keys(kinds).length * per}, non-2xx ${nonOk}, revocations accepted ${accepted} of ${REVOCATIONS}, ` +
      `webhooks delivered ${delivered} of ${expected}, queue messages delivered ${queues.delivered} of ` +
      `${queues.published} with at most ${queues.maxInFlight} of ${queues.cap} in flight`,
  );
  failed =
    nonOk > 0 ||
    accepted > 0 ||
    delivered < expected ||
    queues.delivered < queues.published ||
    queues.maxInFlight > queues.cap;
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
  await admin.end();
}
console.log(failed ? 'drill:pooler FAILED' : 'drill:pooler passed');
process.exit(failed ? 1 : 0);
