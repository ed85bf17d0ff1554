import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { pruneAuditEvents } from './retention';
import { releaseAuditVerifications } from './verification-service';

/** Events past AUDIT_RETENTION_DAYS go, behind a checkpoint, so the rest of each chain still verifies. */
export const auditJobs: BackgroundJob[] = [
  { name: 'prune-audit-events', everyMs: HOUSEKEEPING_EVERY_MS, run: () => pruneAuditEvents() },
  // Verifications run on request (verification-service.ts); one still running at exit is handed back.
  { name: 'audit-verifications', release: async () => void (await releaseAuditVerifications()) },
];
