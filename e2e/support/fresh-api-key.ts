/**
 * What the API says of a key just made with no restrictions: never used, not expiring, not rolled, and within the
 * organization's key policy. The API tests expect it of a new key; the CLI's tests build their keys from it.
 */
export const FRESH_API_KEY = {
  lastUsedAt: null,
  expired: false,
  expiringSoon: false,
  rolledAt: null,
  stopsAt: null,
  permissions: null,
  projectIds: null,
  allowedIps: null,
  policyViolations: [],
};
