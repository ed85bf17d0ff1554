/**
 * Fills Acme's audit log with `count` chained events (the hashes `recordAuditEvent` would write), in bulk,
 * before the server holds the database. usage: tsx bench/audit-fill.ts <count>
 */
import '../scripts/settings-first';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { chainHash } from '../lib/audit/chain';
import { closeDb, getDb } from '../lib/db/client';
import * as t from '../lib/db/schema';

const count = Number(process.argv[2] ?? 100_000);
const db = await getDb();
const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
const [head] = await db.select().from(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, acme.id));
let seq = head?.seq ?? 0;
let previous = head?.hash ?? '';
const start = Date.now() - count * 1000;
for (let i = 0; i < count; i += 1000) {
  const rows = Array.from({ length: Math.min(1000, count - i) }, () => {
    seq += 1;
    const event = {
      id: randomUUID(),
      organizationId: acme.id,
      seq,
      occurredAt: new Date(start + seq * 1000).toISOString(),
      action: 'subscription.updated' as const,
      actor: {
        type: 'user' as const,
        id: randomUUID(),
        name: 'Bench User',
        via: 'api_key' as const,
        credential: 'svc_AbCd…',
      },
      target: { type: 'subscription', id: randomUUID(), name: 'qsb_benchbenchben' },
      projectId: null,
      changes: [{ field: 'target.url', from: `https://a.example.com/${seq}`, to: `https://b.example.com/${seq}` }],
      reason: null,
      context: { requestId: `req_${seq}`, ip: '198.51.100.7', userAgent: 'autocannon' },
    };
    previous = chainHash(previous, event);
    return { ...event, occurredAt: new Date(event.occurredAt), hash: previous };
  });
  await db.insert(t.auditEvents).values(rows);
}
await db
  .insert(t.auditChainHeads)
  .values({ organizationId: acme.id, seq, hash: previous })
  .onConflictDoUpdate({ target: t.auditChainHeads.organizationId, set: { seq, hash: previous } });
await db.execute(sql`analyze audit_events`);
await closeDb();
