import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { GET } from '../../app/v1/organizations/[orgId]/audit-events/verify/route';
import { displayPrefix, generateApiKey, sha256Hex } from '../auth/api-key-format';
import { flushApiKeyUses } from '../auth/last-used';
import { bulkAppendAuditEvents } from '../../server/demo/bulk-seed';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { openDemoDatabase, scratchPostgres, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { auditEventsRehashed } from '../observability/metrics';

/** Events re-hashed so far by kind, from the process's counter (what /metrics exposes). */
async function rehashed() {
  const { values } = await auditEventsRehashed.get();
  const of = (kind: string) => values.find((v) => v.labels.kind === kind)?.value ?? 0;
  return { quick: of('quick'), full: of('full') };
}

/** GET …/audit-events/verify through its route handler, with an API key of ada (OrganizationAdmin of Acme). */
async function verifyThroughRoute(orgId: string, secret: string) {
  const url = `http://127.0.0.1/v1/organizations/${orgId}/audit-events/verify`;
  const res = await GET(new NextRequest(url, { headers: { authorization: `Bearer ${secret}` } }), {
    params: Promise.resolve({ orgId }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

function routeSuite() {
  it('re-hashes only the events written since the last verification, not the whole chain', async () => {
    const db = process.env.DATABASE_URL ? await getDb() : await openDemoDatabase();
    const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
    const [ada] = await db.select().from(t.users).where(eq(t.users.email, 'ada@acme.test'));
    const secret = generateApiKey();
    await db.insert(t.apiKeys).values({
      organizationId: acme.id,
      name: 'verify at scale',
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      ownerType: 'user',
      ownerId: ada.id,
    });
    await bulkAppendAuditEvents(await getDb(), acme.id, 20_000);
    const first = await verifyThroughRoute(acme.id, secret);
    expect(first.firstBrokenSeq).toBeNull();
    expect(first.verified).toBeGreaterThan(20_000);

    await bulkAppendAuditEvents(await getDb(), acme.id, 50);
    const before = await rehashed();
    expect(await verifyThroughRoute(acme.id, secret)).toEqual({ verified: first.verified + 50, firstBrokenSeq: null });
    const after = await rehashed();
    expect({ quick: after.quick - before.quick, full: after.full - before.full }).toEqual({ quick: 50, full: 0 });
    // The key's use is recorded now, in this database, not by a later flush into the next suite's.
    await flushApiKeyUses();
  });
}

describe('GET …/audit-events/verify at scale on the embedded database', () => {
  withEmptyEmbeddedDatabase('audit-verify-route');
  routeSuite();
});

const postgres = await scratchPostgres('audit_verify_route');
describe.skipIf(!postgres.reachable)('GET …/audit-events/verify at scale on PostgreSQL', () => {
  postgres.use({ seedDemo: true });
  routeSuite();
});
