// The server's own type (erased at run time: the CLI needs nothing of the server but its contract).
import type { ApiKey } from '../lib/api-keys/schema';

export type { ApiKey };

export type KeyMatch =
  | { kind: 'one'; key: ApiKey; by: 'id' | 'name' | 'prefix' }
  | { kind: 'ambiguous'; keys: ApiKey[]; by: 'name' | 'prefix' }
  | { kind: 'none' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const looksLikeId = (ref: string) => UUID.test(ref);

/** `svc_ab12…` and `svc_ab12...` as shown by `list`, or just `svc_ab12`. */
function prefixOf(ref: string): string | null {
  const bare = ref.replace(/(…|\.\.\.)$/, '');
  return /^svc_[0-9A-Za-z]+$/.test(bare) ? bare : null;
}

/**
 * The list's `q` that finds every key `ref` may name by name or prefix (the server matches any part of a name
 * and the start of a prefix), so a big organization's keys are not all listed to find one; null for an id.
 */
export function keySearchText(ref: string): string | null {
  if (looksLikeId(ref) || ref.length === 0 || ref.length > 100) return null;
  return prefixOf(ref) ?? ref;
}

/**
 * What `svc iam api-keys delete <ref>` means: an exact id, else an exact name, else a prefix. More than one key
 * by name or prefix is ambiguous, and nothing is deleted.
 */
export function resolveApiKey(keys: ApiKey[], ref: string): KeyMatch {
  const byId = keys.find((k) => k.id.toLowerCase() === ref.toLowerCase());
  if (byId) return { kind: 'one', key: byId, by: 'id' };
  const byName = keys.filter((k) => k.name === ref);
  if (byName.length === 1) return { kind: 'one', key: byName[0], by: 'name' };
  if (byName.length > 1) return { kind: 'ambiguous', keys: byName, by: 'name' };
  const prefix = prefixOf(ref);
  if (!prefix) return { kind: 'none' };
  const byPrefix = keys.filter((k) => k.prefix.startsWith(prefix));
  if (byPrefix.length === 1) return { kind: 'one', key: byPrefix[0], by: 'prefix' };
  if (byPrefix.length > 1) return { kind: 'ambiguous', keys: byPrefix, by: 'prefix' };
  return { kind: 'none' };
}
