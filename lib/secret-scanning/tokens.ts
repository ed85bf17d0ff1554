import { isWellFormedApiKey, sha256Hex } from '../auth/api-key-format';

/** Every kind of credential this service issues, as a partner program would match it. */
export type CredentialKind = 'api_key' | 'oauth_access_token' | 'oauth_refresh_token' | 'scim_token';

/**
 * The exact shapes of the credentials this service issues (docs/api.md, "API key rotation, leaks and usage"):
 * API keys also carry a CRC-32 checksum; the others are 32 random bytes in base64url behind their prefix.
 */
export const TOKEN_PATTERNS: Record<CredentialKind, RegExp> = {
  api_key: /^svc_[0-9A-Za-z]{40}$/,
  oauth_access_token: /^svcoa_[A-Za-z0-9_-]{43}$/,
  oauth_refresh_token: /^svcor_[A-Za-z0-9_-]{43}$/,
  scim_token: /^scim_[A-Za-z0-9_-]{43}$/,
};

export type ClassifiedToken = { kind: CredentialKind; hash: string };

/**
 * What a reported string could be, decided without any database: null when it has no credential's shape or
 * an API key's checksum fails. Only a classified token is ever looked up.
 */
export function classifyToken(token: string): ClassifiedToken | null {
  if (token.startsWith('svc_')) return isWellFormedApiKey(token) ? { kind: 'api_key', hash: sha256Hex(token) } : null;
  for (const kind of ['oauth_access_token', 'oauth_refresh_token', 'scim_token'] as const)
    if (TOKEN_PATTERNS[kind].test(token)) return { kind, hash: sha256Hex(token) };
  return null;
}
