import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../audit/source';
import { displayPrefix, generateApiKey, sha256Hex } from '../auth/api-key-format';
import type { Principal } from '../auth/principal';
import { closeDb, getDb } from '../db/client';
import * as t from '../db/schema';
import { openDemoDatabase } from '../../server/testing/test-database';
import { endRollGraces, rollApiKey } from './roll-service';

// On a real embedded database: the events a roll writes, and the end of a grace period.
const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-roll-'));
let bob: Principal;
let acmeId = '';

async function newKey(values: Partial<typeof t.apiKeys.$inferInsert> = {}) {
  const db = await getDb();
  const secret = generateApiKey();
  const [row] = await db
    .insert(t.apiKeys)
    .values({
      organizationId: acmeId,
      name: `roll unit ${secret.slice(4, 10)}`,
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      ownerType: 'user',
      ownerId: bob.id,
      ...values,
    })
    .returning();
  return row;
}

const eventsOn = async (keyId: string) =>
  (await (await getDb()).select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, acmeId))).filter(
    (e) => e.target.id === keyId,
  );

beforeAll(async () => {
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  const db = await openDemoDatabase();
  const [user] = await db.select().from(t.users).where(eq(t.users.email, 'bob@acme.test'));
  const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
  bob = { type: 'user', id: user.id, name: user.name, via: 'session' };
  acmeId = acme.id;
});

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

const source = { actor: SYSTEM_ACTOR, context: { requestId: 'req_unit', ip: null, userAgent: null } };

describe('rollApiKey', () => {
  it('with grace 0 writes rolled and revoked on the old key and created on the new one, in its transaction', async () => {
    const old = await newKey();
    const rolled = await rollApiKey(acmeId, old.id, bob, 0, source);
    expect((await eventsOn(old.id)).map((e) => [e.action, e.reason])).toEqual([
      ['api_key.rolled', null],
      ['api_key.revoked', 'rolled'],
    ]);
    expect((await eventsOn(rolled.apiKey.id)).map((e) => [e.action, e.reason])).toEqual([
      ['api_key.created', 'rolled'],
    ]);
    const [row] = await (await getDb()).select().from(t.apiKeys).where(eq(t.apiKeys.id, old.id));
    expect(row.revokedReason).toBe('rolled');
  });
});

describe('endRollGraces', () => {
  it('revokes rolled keys from their stopsAt on, once, as the system, and leaves the others', async () => {
    const now = new Date();
    const ended = await newKey({ rolledAt: new Date(now.getTime() - 10_000), stopsAt: now });
    const running = await newKey({ rolledAt: now, stopsAt: new Date(now.getTime() + 60_000) });
    expect(await endRollGraces(now)).toBeGreaterThanOrEqual(1);
    expect(await endRollGraces(now)).toBe(0);
    const db = await getDb();
    const reasons = await db
      .select({ id: t.apiKeys.id, reason: t.apiKeys.revokedReason })
      .from(t.apiKeys)
      .where(and(eq(t.apiKeys.organizationId, acmeId)));
    expect(reasons.find((r) => r.id === ended.id)?.reason).toBe('roll_grace_ended');
    expect(reasons.find((r) => r.id === running.id)?.reason).toBeNull();
    const [event] = await eventsOn(ended.id);
    expect(event).toMatchObject({ action: 'api_key.revoked', reason: 'roll_grace_ended', actor: SYSTEM_ACTOR });
  });
});
