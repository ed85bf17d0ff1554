// Plain JavaScript so that scripts/start.mjs (run by node, no TypeScript) and lib/crypto/secret-box.ts share one rule.
import path from 'node:path';

/**
 * The secrets every instance on one PostgreSQL must share: a value generated into each instance's own DATA_DIR
 * would sign sessions only it accepts (NEXTAUTH_SECRET) or seal secrets only it can open (ENCRYPTION_KEY).
 */
export const SHARED_SECRETS = ['NEXTAUTH_SECRET', 'ENCRYPTION_KEY'];

/** Where a secret generated on the embedded database is kept in DATA_DIR (the start script writes it on first start). */
export function generatedSecretFile(name, dataDir) {
  return path.join(dataDir, name === 'ENCRYPTION_KEY' ? 'encryption-key' : 'nextauth-secret');
}

/** The names among `names` that `values` (the environment, or the app's settings) lack on PostgreSQL; else none. */
export function unsharedSecrets(onPostgres, values, names = SHARED_SECRETS) {
  return onPostgres ? names.filter((name) => !values[name]) : [];
}

/** Why none is generated, and what to set instead. */
export function unsharedSecretsMessage(names) {
  const many = names.length > 1;
  return (
    `${names.join(' and ')} ${many ? 'are' : 'is'} not set. On PostgreSQL (DATABASE_URL) every instance, db:backup ` +
    `and db:restore must use the same ${many ? 'values' : 'value'}, so none is generated: set ${many ? 'each' : 'it'} ` +
    'to 32 random bytes in base64 (`openssl rand -base64 32`), the same on every instance (docs/deploy.md).'
  );
}
