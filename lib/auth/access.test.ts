import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { withDemoEmbeddedDatabase } from '../../server/testing/test-database';
import { PERMISSIONS, POLICIES, type Permission } from '../permissions';
import { invalidateAuthCaches } from './cache';
import { hasPermission } from './service';

// The real policy evaluation against the real schema and demo data, on an embedded database.
const ids = withDemoEmbeddedDatabase('access');

beforeAll(async () => {
  const db = await getDb();
  ids.bot = (await db.select().from(t.bots).where(eq(t.bots.name, 'deploy-bot')))[0].id;
});

const basic: Permission[] = POLICIES.BasicAccess;
const may = (type: 'user' | 'bot', id: () => string, permission: Permission, org: string, project?: string) =>
  hasPermission({ type, id: id() }, permission, { organizationId: ids[org], projectId: project ? ids[project] : null });

describe('policy evaluation from the database', () => {
  it('ada (OrganizationAdmin) may do everything in Acme, at every scope, and nothing in Globex', async () => {
    for (const permission of PERMISSIONS) {
      expect(await may('user', () => ids['ada@acme.test'], permission, 'Acme')).toBe(true);
      expect(await may('user', () => ids['ada@acme.test'], permission, 'Acme', 'Production')).toBe(true);
      expect(await may('user', () => ids['ada@acme.test'], permission, 'Acme', 'Staging')).toBe(true);
      expect(await may('user', () => ids['ada@acme.test'], permission, 'Globex')).toBe(false);
    }
  });

  it('bob has BasicAccess everywhere, and the editors only on Production', async () => {
    const bob = () => ids['bob@acme.test'];
    for (const permission of PERMISSIONS) {
      const everywhere = basic.includes(permission);
      const onProduction = everywhere || [...POLICIES.QueuesEditor, ...POLICIES.SilencesEditor].includes(permission);
      expect(await may('user', bob, permission, 'Acme'), `${permission} at org`).toBe(everywhere);
      expect(await may('user', bob, permission, 'Acme', 'Production'), `${permission} on Production`).toBe(
        onProduction,
      );
      expect(await may('user', bob, permission, 'Acme', 'Staging'), `${permission} on Staging`).toBe(everywhere);
    }
  });

  it('cy has exactly BasicAccess', async () => {
    for (const permission of PERMISSIONS) {
      expect(await may('user', () => ids['cy@acme.test'], permission, 'Acme', 'Production')).toBe(
        basic.includes(permission),
      );
    }
  });

  it('deploy-bot has BasicAccess, plus QueuesEditor on Production only', async () => {
    for (const permission of PERMISSIONS) {
      const everywhere = basic.includes(permission);
      expect(await may('bot', () => ids.bot, permission, 'Acme', 'Production')).toBe(
        everywhere || POLICIES.QueuesEditor.includes(permission),
      );
      expect(await may('bot', () => ids.bot, permission, 'Acme', 'Staging')).toBe(everywhere);
    }
  });

  it('gil is OrganizationAdmin of Globex and nothing in Acme', async () => {
    for (const permission of PERMISSIONS) {
      expect(await may('user', () => ids['gil@globex.test'], permission, 'Globex')).toBe(true);
      expect(await may('user', () => ids['gil@globex.test'], permission, 'Acme')).toBe(false);
    }
  });

  it('a policy change is seen on the very next check once access caches are invalidated, as every change does', async () => {
    const db = await getDb();
    const cy = () => ids['cy@acme.test'];
    expect(await may('user', cy, 'members.list', 'Acme')).toBe(false);
    const [binding] = await db
      .insert(t.policyBindings)
      .values({ organizationId: ids.Acme, principalType: 'user', principalId: cy(), policy: 'MemberAdmin' })
      .returning();
    invalidateAuthCaches();
    expect(await may('user', cy, 'members.list', 'Acme')).toBe(true);
    await db.delete(t.policyBindings).where(eq(t.policyBindings.id, binding.id));
    invalidateAuthCaches();
    expect(await may('user', cy, 'members.list', 'Acme')).toBe(false);
  });

  it('seeding twice adds nothing', async () => {
    const { seedDemoData } = await import('../../server/demo/seed');
    const db = await getDb();
    const before = (await db.select().from(t.subscriptions)).length;
    expect(await seedDemoData(db)).toBe(false);
    expect((await db.select().from(t.subscriptions)).length).toBe(before);
    expect(before).toBe(5);
    expect((await db.select().from(t.silences)).length).toBe(5);
  });
});
