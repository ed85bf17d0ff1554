import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { AlertScope } from './service';

/**
 * The project's alert epoch (`alert_epochs`, kept by triggers on `alerts`, migration 0023): one primary-key read.
 * Null before the project's first alert write, so nothing is ever kept under it: a value that could come back.
 */
export async function readAlertEpoch(db: DbOrTx, scope: AlertScope): Promise<string | null> {
  const [row] = await db
    .select({ epoch: t.alertEpochs.epoch })
    .from(t.alertEpochs)
    .where(and(eq(t.alertEpochs.organizationId, scope.organizationId), eq(t.alertEpochs.projectId, scope.projectId)));
  return row?.epoch ?? null;
}
