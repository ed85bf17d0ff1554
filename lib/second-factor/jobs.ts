import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { pruneWebauthnChallenges } from './passkey-service';
import { pruneSudoWindows } from './sudo-service';

export const secondFactorJobs: BackgroundJob[] = [
  { name: 'prune-sudo-windows', everyMs: HOUSEKEEPING_EVERY_MS, run: () => pruneSudoWindows() },
  { name: 'prune-webauthn-challenges', everyMs: HOUSEKEEPING_EVERY_MS, run: () => pruneWebauthnChallenges() },
];
