import type { BackgroundJob } from '../jobs/runner';
import { HOUSEKEEPING_EVERY_MS } from '../jobs/schedule';
import { pruneAuditEvents } from './retention';

/** Events past AUDIT_RETENTION_DAYS go, behind a checkpoint, so the rest of each chain still verifies. */
export const auditJobs: BackgroundJob[] = [
  { name: 'prune-audit-events', everyMs: HOUSEKEEPING_EVERY_MS, run: () => pruneAuditEvents() },
];
