/**
 * Prepares a database for the benchmark before the server holds it: the demo data, an API key for ada
 * (OrganizationAdmin) and `count` more keys in Acme, inserted in batches. Prints a JSON summary.
 * usage: tsx bench/prepare.ts <keyCount> <out.json>
 */
import { writeFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { displayPrefix, generateApiKey, sha256Hex } from '../lib/auth/api-key-format';
import { closeDb, getDb } from '../lib/db/client';
import { seedDemoData } from '../lib/db/seed';
import * as t from '../lib/db/schema';

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

const silences = await db.select().from(t.silences).where(eq(t.silences.projectId, production.id));
const active = silences.find((s) => s.startsAt.getTime() <= Date.now() && s.endsAt.getTime() > Date.now())!;
const [httpsSub] = (await db.select().from(t.subscriptions).where(eq(t.subscriptions.projectId, production.id))).filter(
  (s) => s.target.kind === 'https' && s.state === 'active',
);
writeFileSync(
  out!,
  JSON.stringify({ adminKey, orgId: acme.id, projectId: production.id, silenceId: active.id, subscriptionId: httpsSub.id }),
);
await closeDb();
