import pg from 'pg';

/**
 * The audit log is read straight from its table until `GET …/audit-events` lands (another branch builds it).
 * Only on PostgreSQL: the embedded database belongs to the server process alone.
 */
export const withDatabase = !!process.env.DATABASE_URL;

export type StoredAuditEvent = {
  seq: number;
  action: string;
  actor: { type: string; id: string | null; name: string; via: string | null; credential: string | null };
  target: { type: string; id: string; name: string };
  project_id: string | null;
  changes: { field: string; from: unknown; to: unknown }[];
  reason: string | null;
  context: { requestId: string | null; ip: string | null; userAgent: string | null };
};

/** The events of one organization about one target, oldest first. */
export async function auditEventsOf(organizationId: string, targetId: string): Promise<StoredAuditEvent[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<StoredAuditEvent>(
      `select seq, action, actor, target, project_id, changes, reason, context from audit_events
       where organization_id = $1 and target->>'id' = $2 order by seq`,
      [organizationId, targetId],
    );
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  } finally {
    await client.end();
  }
}
