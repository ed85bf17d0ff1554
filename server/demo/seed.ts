import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { sealSecret } from '../../lib/crypto/secret-box';
import { newSigningSecret } from '../../lib/delivery/signing';
import { subscriptionSecretContext } from '../../lib/subscriptions/secret';
import { hashPassword } from '../../lib/auth/password';
import { newSlug } from '../../lib/slug';
import type { Db } from '../../lib/db/client';
import * as t from '../../lib/db/schema';
import { seedAuditHistory } from './seed-audit';
import { settings } from '../../lib/settings/settings';

/** The columns of a queue of a project, keeping messages four days (PRODUCT.md's default). */
export function queueValues(
  scope: { organizationId: string; projectId: string },
  name: string,
): typeof t.queues.$inferInsert {
  return { ...scope, name, slug: newSlug('que'), retentionSeconds: 345_600 };
}

/**
 * The columns of an active subscription of a project's queue: batches of 10, 20 at once, to an HTTPS target.
 * `values` overrides any column. The demo data and the unit tests' fixture both start from it.
 */
export function subscriptionValues(
  scope: { organizationId: string; projectId: string; queueId: string },
  values: Partial<typeof t.subscriptions.$inferInsert> = {},
): typeof t.subscriptions.$inferInsert {
  return {
    ...scope,
    slug: newSlug('qsb'),
    state: 'active',
    batchSize: 10,
    maxConcurrency: 20,
    target: { kind: 'https', url: 'https://hooks.example.com/orders', timeoutSeconds: 30 },
    ...values,
  };
}

export const DEMO_PASSWORD = 'correct-horse-battery';

/**
 * A demo subscription's id and its sealed signing secret, which nobody has seen (Rotate secret shows a new one). A
 * seed without an encryption key (a unit test's) leaves it out: that subscription delivers once one is rotated in.
 */
function demoSigningSecret(): { id: string; secretBox?: string } {
  const id = randomUUID();
  try {
    return { id, secretBox: sealSecret(newSigningSecret(), subscriptionSecretContext(id)) };
  } catch {
    return { id };
  }
}

/** Whether start-up creates the demo data: the embedded database is the demo, PostgreSQL gets it only when asked. */
export function demoSeedWanted({ DATABASE_URL, SEED_DEMO } = settings()): boolean {
  return DATABASE_URL ? SEED_DEMO === true : SEED_DEMO !== false;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The demo organizations of PRODUCT.md. Does nothing when Acme already exists, so it can run any number of times. */
export async function seedDemoData(db: Db): Promise<boolean> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return db.transaction(async (tx) => {
    // Serialize concurrent seeders (two instances starting on one PostgreSQL).
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const existing = await tx
      .select({ id: t.organizations.id })
      .from(t.organizations)
      .where(eq(t.organizations.name, 'Acme'));
    if (existing.length > 0) return false;

    const now = Date.now();
    const [acme] = await tx.insert(t.organizations).values({ name: 'Acme' }).returning();
    const [production, staging] = await tx
      .insert(t.projects)
      .values([
        { organizationId: acme.id, name: 'Production', alertingEnabled: true, createdAt: new Date(now - 2) },
        { organizationId: acme.id, name: 'Staging', alertingEnabled: false, createdAt: new Date(now - 1) },
      ])
      .returning();
    const [ada, bob, cy] = await tx
      .insert(t.users)
      .values([
        { email: 'ada@acme.test', name: 'Ada Lovelace', passwordHash },
        { email: 'bob@acme.test', name: 'Bob Builder', passwordHash },
        { email: 'cy@acme.test', name: 'Cy Twombly', passwordHash },
      ])
      .returning();
    await tx
      .insert(t.memberships)
      .values(
        [ada, bob, cy].map((u, i) => ({ organizationId: acme.id, userId: u.id, joinedAt: new Date(now - 3 + i) })),
      );
    const [deployBot] = await tx.insert(t.bots).values({ organizationId: acme.id, name: 'deploy-bot' }).returning();

    const userBinding = (userId: string, policy: string, projectId: string | null = null) => ({
      organizationId: acme.id,
      projectId,
      principalType: 'user' as const,
      principalId: userId,
      policy,
    });
    await tx.insert(t.policyBindings).values([
      userBinding(ada.id, 'OrganizationAdmin'),
      userBinding(bob.id, 'BasicAccess'),
      userBinding(bob.id, 'QueuesEditor', production.id),
      userBinding(bob.id, 'SilencesEditor', production.id),
      userBinding(cy.id, 'BasicAccess'),
      {
        organizationId: acme.id,
        projectId: null,
        principalType: 'bot',
        principalId: deployBot.id,
        policy: 'BasicAccess',
      },
      {
        organizationId: acme.id,
        projectId: production.id,
        principalType: 'bot',
        principalId: deployBot.id,
        policy: 'QueuesEditor',
      },
    ]);

    const [globex] = await tx.insert(t.organizations).values({ name: 'Globex' }).returning();
    const [globexProject] = await tx
      .insert(t.projects)
      .values({ organizationId: globex.id, name: 'Platform', alertingEnabled: true })
      .returning();
    const [gil] = await tx
      .insert(t.users)
      .values({ email: 'gil@globex.test', name: 'Gil Globex', passwordHash })
      .returning();
    await tx.insert(t.memberships).values({ organizationId: globex.id, userId: gil.id });
    await tx.insert(t.policyBindings).values({
      organizationId: globex.id,
      projectId: null,
      principalType: 'user',
      principalId: gil.id,
      policy: 'OrganizationAdmin',
    });

    // PRODUCT.md: Production's subscriptions read from `orders`, Staging's and Globex's from `events`; nothing is
    // published by the seed.
    const queueRows = await tx
      .insert(t.queues)
      .values([
        queueValues({ organizationId: acme.id, projectId: production.id }, 'orders'),
        queueValues({ organizationId: acme.id, projectId: staging.id }, 'events'),
        queueValues({ organizationId: globex.id, projectId: globexProject.id }, 'events'),
      ])
      .returning();
    const queueOf = (p: typeof production) => queueRows.find((q) => q.projectId === p.id)!.id;
    const sub = (p: typeof production, n: number, values: Partial<typeof t.subscriptions.$inferInsert>) =>
      subscriptionValues(
        { organizationId: p.organizationId, projectId: p.id, queueId: queueOf(p) },
        {
          ...demoSigningSecret(),
          health: 'healthy',
          lastSuccessAt: new Date(now - 5 * 60_000),
          createdAt: new Date(now - 10 + n),
          updatedAt: new Date(now - 10 + n),
          ...values,
        },
      );
    const [orders, failing] = await tx
      .insert(t.subscriptions)
      .values([
        sub(production, 0, {}),
        sub(production, 1, {
          state: 'paused',
          batchSize: 5,
          maxConcurrency: 4,
          target: { kind: 'https', url: 'https://billing.example.com/webhooks/invoices', timeoutSeconds: 10 },
          health: 'failing',
          lastSuccessAt: new Date(now - 3 * DAY),
          lastError: {
            at: new Date(now - 2 * HOUR).toISOString(),
            class: 'http_status',
            message: 'Target answered 503 Service Unavailable',
            status: 503,
          },
        }),
        sub(production, 2, {
          batchSize: 1,
          maxConcurrency: 1,
          target: { kind: 'workflow', workflowId: '0b6f3a52-6a55-4c1e-9d0e-5d2a8f1c7e41' },
        }),
        sub(staging, 3, {
          target: { kind: 'https', url: 'https://staging-hooks.example.com/orders', timeoutSeconds: 30 },
        }),
        sub(globexProject, 4, {
          target: { kind: 'https', url: 'https://hooks.globex.example/ingest', timeoutSeconds: 15 },
        }),
      ])
      .returning();

    const silence = (p: typeof production, n: number, values: Partial<typeof t.silences.$inferInsert>) => ({
      organizationId: p.organizationId,
      projectId: p.id,
      slug: newSlug('sil'),
      comment: 'Planned maintenance',
      matchers: [{ label: 'service', op: '=' as const, value: 'checkout' }],
      startsAt: new Date(now - HOUR),
      endsAt: new Date(now + 30 * DAY),
      createdByType: 'user' as const,
      createdById: p.organizationId === acme.id ? ada.id : gil.id,
      updatedByType: 'user' as const,
      updatedById: p.organizationId === acme.id ? ada.id : gil.id,
      createdAt: new Date(now - 2 * DAY + n),
      updatedAt: new Date(now - 2 * DAY + n),
      ...values,
    });
    const [, investigation] = await tx
      .insert(t.silences)
      .values([
        silence(production, 0, {
          comment: 'Database failover drill',
          matchers: [
            { label: 'alertname', op: '=~', value: 'Postgres.*' },
            { label: 'env', op: '=', value: 'production' },
          ],
          startsAt: new Date(now + 7 * DAY),
          endsAt: new Date(now + 7 * DAY + 4 * HOUR),
        }),
        silence(production, 1, {
          comment: 'Checkout latency under investigation (INC-1234)',
          matchers: [
            { label: 'service', op: '=', value: 'checkout' },
            { label: 'severity', op: '!=', value: 'critical' },
          ],
        }),
        silence(production, 2, {
          comment: 'Load test last week',
          matchers: [{ label: 'team', op: '=', value: 'payments' }],
          startsAt: new Date(now - 9 * DAY),
          endsAt: new Date(now - 8 * DAY),
        }),
        silence(staging, 3, { comment: 'Staging is noisy during the migration' }),
        silence(globexProject, 4, {
          comment: 'Globex batch window',
          matchers: [{ label: 'job', op: '=', value: 'batch' }],
        }),
      ])
      .returning();
    const acmeIds = { acmeId: acme.id, productionId: production.id };
    await seedAuditHistory(tx, { ...acmeIds, ada, bob, cy, deployBot, orders, failing, investigation }, now);
    return true;
  });
}
