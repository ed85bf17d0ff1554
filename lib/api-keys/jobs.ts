import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { endRollGraces } from './roll-service';
import { purgeOldUsage } from './usage-service';

// Rolled keys are refused from their stopsAt on by authentication; this only records the revocation.
const ROLL_GRACE_EVERY_MS = 60_000;

export const apiKeyJobs: BackgroundJob[] = [
  { name: 'end-roll-graces', everyMs: ROLL_GRACE_EVERY_MS, run: () => endRollGraces() },
  { name: 'purge-old-usage', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeOldUsage() },
];
