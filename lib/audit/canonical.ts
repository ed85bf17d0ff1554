/**
 * Canonical JSON (the RFC 8785 rules for the values an event holds): object keys sorted by UTF-16 code
 * units, no whitespace, strings and numbers as `JSON.stringify` writes them. Undefined members are dropped.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('Non-finite number in JSON');
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

/**
 * The canonical JSON of `{...object, [key]: n}` split around `n`: `prefix + String(n) + suffix` is that
 * JSON for any integer n. The database inserts the sequence number it assigns under the chain's lock.
 */
export function canonicalJsonAround(object: Record<string, unknown>, key: string): [string, string] {
  const keys = [...Object.keys(object).filter((k) => k !== key && object[k] !== undefined), key].sort();
  const member = (k: string) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`;
  const at = keys.indexOf(key);
  const before = keys.slice(0, at).map(member);
  const after = keys.slice(at + 1).map(member);
  return [`{${[...before, ''].join(',')}${JSON.stringify(key)}:`, `${after.length > 0 ? ',' : ''}${after.join(',')}}`];
}
