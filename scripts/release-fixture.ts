// Writes e2e/fixtures/release-0f3dff3.sql (+ .json): the database of the first release, on which
// e2e/api/operations-upgrade.spec.ts runs today's migrations. Run once: `npx tsx scripts/release-fixture.ts`.
// It takes that commit's migrations, schema and seed from git (never today's), applies them with drizzle's migrator
// to an in-memory PGlite, seeds it with that release's own code, adds the rows its services wrote (keys, a SCIM
// token, an OAuth login, an idempotency record, a rate-limit counter), then writes the schema (the release's
// migration files, as applied) and every row as SQL that both PGlite and PostgreSQL load.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import {
  columnsOf,
  readRows,
  RELEASE,
  RELEASE_TABLES,
  releaseSecretsFile,
  releaseSqlFile,
  TEXT_SETTINGS,
  type ReleaseSecrets,
} from '../e2e/support/release-fixture';

const root = process.cwd();
// Inside the repository, so that the release's files resolve this checkout's node_modules.
const tree = mkdtempSync(path.join(root, '.release-'));
try {
  execFileSync('sh', ['-c', `git archive ${RELEASE} lib drizzle | tar -x -C "${tree}"`], { stdio: 'inherit' });
  const schema = (await import(path.join(tree, 'lib/db/schema.ts'))) as Record<string, never>;
  const seed = (await import(path.join(tree, 'lib/db/seed.ts'))) as {
    ensurePolicies: (db: unknown) => Promise<void>;
    seedDemoData: (db: unknown) => Promise<boolean>;
  };
  const format = (await import(path.join(tree, 'lib/auth/api-key-format.ts'))) as {
    generateApiKey: () => string;
    displayPrefix: (key: string) => string;
  };
  const t = schema as unknown as Record<string, never>;

  const pglite = new PGlite();
  const db = drizzle({ client: pglite, schema });
  await migrate(db, { migrationsFolder: path.join(tree, 'drizzle') });
  await seed.ensurePolicies(db);
  if (!(await seed.seedDemoData(db))) throw new Error('the release seeded nothing');

  const one = async <R>(text: string) => (await pglite.query<R>(text)).rows[0];
  const acme = await one<{ id: string }>(`select id from organizations where name = 'Acme'`);
  const globex = await one<{ id: string }>(`select id from organizations where name = 'Globex'`);
  const ada = await one<{ id: string }>(`select id from users where email = 'ada@acme.test'`);
  const gil = await one<{ id: string }>(`select id from users where email = 'gil@globex.test'`);
  const bot = await one<{ id: string }>(`select id from bots where name = 'deploy-bot'`);
  const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
  const now = new Date();
  const DAY = 86_400_000;

  // The rows the release's services wrote (lib/api-keys, lib/scim, lib/oauth, lib/http/idempotency), as they wrote them.
  const secrets: ReleaseSecrets = {
    keys: { ada: format.generateApiKey(), deployBot: format.generateApiKey(), gil: format.generateApiKey() },
    revokedKey: format.generateApiKey(),
    scimToken: 'scim_' + randomBytes(32).toString('base64url'),
  };
  const key = (
    secret: string,
    name: string,
    orgId: string,
    owner: { type: 'user' | 'bot'; id: string },
    at: number,
  ) => ({
    organizationId: orgId,
    name,
    prefix: format.displayPrefix(secret),
    secretHash: sha256Hex(secret),
    ownerType: owner.type,
    ownerId: owner.id,
    createdByUserId: orgId === acme.id ? ada.id : gil.id,
    createdAt: new Date(now.getTime() - at),
  });
  const ins = (table: string, values: unknown) => db.insert(t[table]).values(values as never);
  await ins('apiKeys', [
    key(secrets.keys.ada, 'ada laptop', acme.id, { type: 'user', id: ada.id }, 3 * DAY),
    {
      ...key(secrets.keys.deployBot, 'deploy pipeline', acme.id, { type: 'bot', id: bot.id }, 2 * DAY),
      lastUsedAt: new Date(now.getTime() - DAY),
    },
    {
      ...key(secrets.keys.gil, 'globex ingest', globex.id, { type: 'user', id: gil.id }, DAY),
      expiresAt: new Date(now.getTime() + 3650 * DAY),
    },
    {
      ...key(secrets.revokedKey, 'old laptop', acme.id, { type: 'user', id: ada.id }, 4 * DAY),
      revokedAt: new Date(now.getTime() - DAY / 2),
      revokedReason: 'revoked',
      revokedById: ada.id,
    },
  ]);
  await ins('scimTokens', {
    organizationId: acme.id,
    tokenHash: sha256Hex(secrets.scimToken),
    prefix: secrets.scimToken.slice(0, 9),
    createdByUserId: ada.id,
  });
  const grantId = randomUUID();
  await ins('oauthDeviceCodes', {
    deviceCodeHash: sha256Hex(randomBytes(32).toString('base64url')),
    userCode: 'BCDF-GHJK',
    clientId: 'svc-cli',
    clientName: 'svc CLI',
    status: 'used',
    userId: ada.id,
    expiresAt: new Date(now.getTime() + 600_000),
  });
  await ins('oauthTokens', [
    {
      tokenHash: sha256Hex(randomUUID()),
      kind: 'access',
      userId: ada.id,
      grantId,
      clientId: 'svc-cli',
      expiresAt: new Date(now.getTime() + 3_600_000),
    },
    {
      tokenHash: sha256Hex(randomUUID()),
      kind: 'refresh',
      userId: ada.id,
      grantId,
      clientId: 'svc-cli',
      expiresAt: new Date(now.getTime() + 30 * DAY),
    },
  ]);
  await ins('idempotencyRecords', {
    organizationId: acme.id,
    principal: `user:${ada.id}`,
    method: 'POST',
    path: `/v1/organizations/${acme.id}/api-keys`,
    key: 'release-retry-1',
    fingerprint: sha256Hex('{"name":"ada laptop"}'),
    state: 'done',
    responseStatus: 201,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{"apiKey":{"name":"ada laptop"}}',
    expiresAt: new Date(now.getTime() + DAY),
  });
  // A silence that stays active for decades, as the release's silence service wrote one: the seed's silences end
  // within a month of this run, and an expired silence accepts no changes.
  const { newSlug } = (await import(path.join(tree, 'lib/slug.ts'))) as { newSlug: (kind: string) => string };
  for (const [org, user, projectName] of [
    [acme, ada, 'Production'],
    [globex, gil, 'Platform'],
  ] as const) {
    const project = await one<{ id: string }>(
      `select id from projects where organization_id = '${org.id}' and name = '${projectName}'`,
    );
    await ins('silences', {
      organizationId: org.id,
      projectId: project.id,
      slug: newSlug('sil'),
      comment: 'Legacy batch host, kept quiet until it is retired',
      matchers: [{ label: 'host', op: '=', value: 'batch-01' }],
      startsAt: new Date(now.getTime() - DAY),
      endsAt: new Date('2099-01-01T00:00:00.000Z'),
      createdByType: 'user',
      createdById: user.id,
      updatedByType: 'user',
      updatedById: user.id,
    });
  }
  await pglite.query(
    `insert into rate_limits (key, points, expire) values ('signin:203.0.113.7', 2, ${now.getTime() + 60_000})`,
  );

  // The schema: the release's migration files as its migrator applied them, and its record of having done so.
  const journal = JSON.parse(readFileSync(path.join(tree, 'drizzle/meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const applied = (
    await pglite.query<{ hash: string; created_at: string }>(
      'select hash, created_at::text from drizzle.__drizzle_migrations order by id',
    )
  ).rows;
  const out: string[] = [
    `-- The database of the first release (${RELEASE}): its migrations 0000-0002 and the rows it wrote.`,
    '-- Written by scripts/release-fixture.ts; do not edit. e2e/api/operations-upgrade.spec.ts loads it into an',
    "-- empty database and starts today's server on it, which applies every later migration.",
    'CREATE SCHEMA IF NOT EXISTS "drizzle";',
    'CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);',
    ...applied.map(
      (m) => `INSERT INTO "drizzle"."__drizzle_migrations" (hash, created_at) VALUES ('${m.hash}', ${m.created_at});`,
    ),
  ];
  for (const entry of journal.entries) {
    out.push(
      `-- drizzle/${entry.tag}.sql`,
      readFileSync(path.join(tree, 'drizzle', `${entry.tag}.sql`), 'utf8').trim() + '\n',
    );
  }
  await pglite.exec(TEXT_SETTINGS);
  const query = (text: string) => pglite.query(text);
  const literal = (v: string | null) => (v === null ? 'NULL' : `'${v.replaceAll("'", "''")}'`);
  for (const table of RELEASE_TABLES) {
    const { columns, rows } = await readRows(query, table, await columnsOf(query, table));
    out.push(`-- ${table}: ${rows.length} rows`);
    const names = columns.map((c) => `"${c}"`).join(', ');
    for (const row of rows) out.push(`INSERT INTO "${table}" (${names}) VALUES (${row.map(literal).join(', ')});`);
  }
  await pglite.close();
  mkdirSync(path.dirname(releaseSqlFile), { recursive: true });
  writeFileSync(releaseSqlFile, out.join('\n') + '\n');
  writeFileSync(releaseSecretsFile, JSON.stringify(secrets, null, 2) + '\n');
  console.error(`Wrote ${path.relative(root, releaseSqlFile)} and ${path.relative(root, releaseSecretsFile)}.`);
} finally {
  rmSync(tree, { recursive: true, force: true });
}
