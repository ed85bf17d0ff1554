import type { APIRequestContext } from '@playwright/test';
import { expect, type Demo } from '../fixtures';
import { listAll, silencesPath, type Silence } from './silences';

// The silences of projects Acme's callers cannot reach: their routes answer 404.

/** Staging has alerting off: every silence route there is 404. */
export const stagingSilences = (demo: Demo) => silencesPath(demo.acme, demo.staging);
/** Globex's project: another organization. */
export const globexSilences = (demo: Demo) => silencesPath(demo.globex, demo.globexProject);

/**
 * Globex's first silence as gil reads it, handed to `attempt` (an Acme caller trying something on it), and read
 * again after: unchanged.
 */
export async function globexSilenceUnchanged(
  gil: APIRequestContext,
  demo: Demo,
  attempt: (silence: Silence) => Promise<unknown>,
): Promise<void> {
  const [before] = await listAll(gil, globexSilences(demo));
  await attempt(before);
  expect((await listAll(gil, globexSilences(demo))).find((s) => s.id === before.id)).toEqual(before);
}
