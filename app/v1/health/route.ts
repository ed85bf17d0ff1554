import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { json, publicRoute } from '@/lib/pipeline/route';
import { healthOp } from '@/lib/orgs/operations';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = publicRoute(healthOp, async () => {
  // From SIGTERM on (scripts/start.mjs), so a load balancer stops sending before the process exits.
  if ((globalThis as { __svcShuttingDown?: boolean }).__svcShuttingDown)
    throw new ApiError('unavailable', 'The server is shutting down.', { headers: { 'retry-after': '5' } });
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch (err) {
    console.error('Health check: database not ready', err);
    throw new ApiError('unavailable', 'The database is not ready.', { headers: { 'retry-after': '5' } });
  }
  return json({ status: 'ok' });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(healthOp);
