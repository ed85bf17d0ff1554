/**
 * Prepares a database for the benchmark before the server holds it: the demo data, an API key for ada
 * (OrganizationAdmin) and `count` more keys in Acme, inserted in batches; with `alerts`, Production's 10,000
 * unresolved alerts and 1,000 silences with their links (bench/alerts-seed.ts). Prints a JSON summary.
 * usage: tsx bench/prepare.ts <keyCount> <out.json> [alerts]
 */
import '../scripts/settings-first';
import { writeFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { displayPrefix, generateApiKey, sha256Hex } from '../lib/auth/api-key-format';
import { closeDb, getDb } from '../lib/db/client';
import { seedDemoData } from '../server/demo/seed';
import * as t from '../lib/db/schema';
import { newSlug } from '../lib/slug';
import { fingerprintOf } from '../lib/alerts/fingerprint';
import { labelSetTest } from '../lib/silences/matchers';
import {
  ALERT_COUNT,
  SCHEDULED_EVERY,
  SILENCE_COUNT,
  alertAnnotations,
  alertLabels,
  silenceMatchers,
} from './alerts-seed';

const count = Number(process.argv[2] ?? 50);
const out = process.argv[3];
process.env.SEED_DEMO = '0';
const db = await getDb();
await seedDemoData(db);
const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
const [production] = await db.select().from(t.projects).where(eq(t.projects.name, 'Production'));
const [ada] = await db.select().from(t.users).where(eq(t.users.email, 'ada@acme.test'));
const users = await db.select().from(t.users);

const adminKey = generateApiKey();
await db.insert(t.apiKeys).values({
  organizationId: acme.id,
  name: 'bench admin',
  prefix: displayPrefix(adminKey),
  secretHash: sha256Hex(adminKey),
  ownerType: 'user',
  ownerId: ada.id,
});

// The same owner's key restricted on every axis: a request with it must cost what the unrestricted one costs.
const restrictedKey = generateApiKey();
await db.insert(t.apiKeys).values({
  organizationId: acme.id,
  name: 'bench restricted',
  prefix: displayPrefix(restrictedKey),
  secretHash: sha256Hex(restrictedKey),
  ownerType: 'user',
  ownerId: ada.id,
  permissions: ['obs.silences.get', 'obs.silences.list', 'obs.silences.update'],
  projectIds: [production.id],
  allowedIps: ['127.0.0.0/8', '::1'],
});

// Filler keys: random hashes (never used to authenticate), spread over the Acme users, one second apart.
const acmeUsers = users.filter((u) => u.email.endsWith('@acme.test'));
const start = Date.now() - count * 1000;
for (let i = 0; i < count; i += 1000) {
  const batch = Array.from({ length: Math.min(1000, count - i) }, (_, j) => {
    const n = i + j;
    const secret = generateApiKey();
    return {
      organizationId: acme.id,
      name: `bench key ${n}`,
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      ownerType: 'user' as const,
      ownerId: acmeUsers[n % acmeUsers.length].id,
      createdAt: new Date(start + n * 1000),
    };
  });
  await db.insert(t.apiKeys).values(batch);
}

// One subscription and one active silence per load connection: real traffic writes many resources, and
// sixteen writers queueing on one row lock would measure the lock, not the write path.
const WRITERS = 16;
const [benchQueue] = await db
  .insert(t.queues)
  .values({
    organizationId: acme.id,
    projectId: production.id,
    name: 'bench',
    slug: newSlug('que'),
    retentionSeconds: 345_600,
  })
  .returning();
const subscriptions = await db
  .insert(t.subscriptions)
  .values(
    Array.from({ length: WRITERS }, () => ({
      organizationId: acme.id,
      projectId: production.id,
      queueId: benchQueue.id,
      slug: newSlug('qsb'),
      state: 'active',
      batchSize: 10,
      maxConcurrency: 20,
      target: { kind: 'https', url: 'https://hooks.example.com/bench', timeoutSeconds: 30 },
    })),
  )
  .returning({ id: t.subscriptions.id });
// Publishing's route: a queue whose one subscription is paused, so each message is stored for it and none is sent.
const [publishQueue] = await db
  .insert(t.queues)
  .values({
    organizationId: acme.id,
    projectId: production.id,
    name: 'bench-publish',
    slug: newSlug('que'),
    retentionSeconds: 345_600,
  })
  .returning();
await db.insert(t.subscriptions).values({
  organizationId: acme.id,
  projectId: production.id,
  queueId: publishQueue.id,
  slug: newSlug('qsb'),
  state: 'paused',
  batchSize: 10,
  maxConcurrency: 10,
  target: { kind: 'https', url: 'https://hooks.example.com/bench', timeoutSeconds: 30 },
});
const silences = await db
  .insert(t.silences)
  .values(
    Array.from({ length: WRITERS }, () => ({
      organizationId: acme.id,
      projectId: production.id,
      slug: newSlug('sil'),
      comment: 'bench',
      matchers: [{ label: 'service', op: '=' as const, value: 'bench' }],
      startsAt: new Date(Date.now() - 60_000),
      endsAt: new Date(Date.now() + 30 * 86_400_000),
      createdByType: 'user' as const,
      createdById: ada.id,
      updatedByType: 'user' as const,
      updatedById: ada.id,
    })),
  )
  .returning({ id: t.silences.id });
// The alerts project: the rows and links the muting service would have written, straight into the tables.
if (process.argv[4] === 'alerts') {
  const now = Date.now();
  const scope = { organizationId: acme.id, projectId: production.id };
  const alerts = Array.from({ length: ALERT_COUNT }, (_, i) => {
    const labels = alertLabels(i);
    const annotations = alertAnnotations(i);
    return {
      ...scope,
      fingerprint: fingerprintOf(labels),
      labels,
      annotations,
      generatorUrl: `http://prometheus.example.com:9090/graph?g0.expr=${labels.alertname}`,
      startsAt: new Date(now - (ALERT_COUNT - i) * 1000),
      // Past the bench's end: every alert stays unresolved while it runs.
      endsAt: new Date(now + 6 * 3_600_000),
      endsByTimeout: false,
      updatedAt: new Date(now),
      sizeBytes: JSON.stringify({ labels, annotations }).length,
      firingNotifiedAt: new Date(now),
    };
  });
  for (let i = 0; i < alerts.length; i += 1000) await db.insert(t.alerts).values(alerts.slice(i, i + 1000));
  const drafts = Array.from({ length: SILENCE_COUNT }, (_, i) => {
    const matchers = silenceMatchers(i);
    const matches = labelSetTest(matchers);
    return { id: crypto.randomUUID(), matchers, muted: alerts.filter((a) => matches(a.labels)) };
  });
  for (let i = 0; i < drafts.length; i += 500)
    await db.insert(t.silences).values(
      drafts.slice(i, i + 500).map((d, j) => ({
        ...scope,
        id: d.id,
        slug: newSlug('sil'),
        comment: `bench alerts ${i + j}`,
        matchers: d.matchers,
        startsAt: new Date(now + ((i + j) % SCHEDULED_EVERY === 0 ? 3_600_000 : -60_000)),
        endsAt: new Date(now + 7 * 86_400_000),
        matchedAlerts: d.muted.length,
        createdByType: 'user' as const,
        createdById: ada.id,
        updatedByType: 'user' as const,
        updatedById: ada.id,
      })),
    );
  const links = drafts.flatMap((d) => d.muted.map((a) => ({ ...scope, fingerprint: a.fingerprint, silenceId: d.id })));
  for (let i = 0; i < links.length; i += 1000) await db.insert(t.alertSilences).values(links.slice(i, i + 1000));
  await db.execute(sql`analyze`);
  console.error(`seeded ${alerts.length} alerts, ${drafts.length} silences, ${links.length} links`);
}

writeFileSync(
  out!,
  JSON.stringify({
    adminKey,
    restrictedKey,
    orgId: acme.id,
    projectId: production.id,
    silenceIds: silences.map((s) => s.id),
    subscriptionIds: subscriptions.map((s) => s.id),
    publishQueueId: publishQueue.id,
  }),
);
await closeDb();
