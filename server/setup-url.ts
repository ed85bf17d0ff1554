import type { Db } from '../lib/db/client';
import { configuredOrigin } from '../lib/http/public-origin';
import { issueSetupToken } from '../lib/onboarding/setup-service';
import { settings } from '../lib/settings/settings';

/**
 * On a database without users, logs the one-time URL that makes the first administrator (PRODUCT.md allows exactly
 * this secret in the log): a new one at every start until someone uses it.
 */
export async function announceSetup(db: Db): Promise<void> {
  const token = await issueSetupToken(db);
  if (!token) return;
  const origin = configuredOrigin() ?? `http://localhost:${settings().PORT}`;
  console.log(
    `\nThis installation has no users yet. Make the first administrator at:\n\n  ${origin}/setup?token=${token}\n\n` +
      'The link works once; every start without users logs a new one. (Or run `npm run user:create`.)\n',
  );
}
