/**
 * The one-row `auth_epoch` table's read (lib/auth/epoch.ts): every change that takes access away bumps it, and
 * instances compare it before answering from their authentication caches. Here so that the rate-limit upsert
 * (lib/http/rate-limit.ts) can read it in the same statement without importing authentication.
 */
export const AUTH_EPOCH_QUERY = 'select epoch from auth_epoch where id = 1';
