import { ApiError } from '../errors';

/** A strong ETag for a version counter: `"<version>"`. */
export const strongEtag = (version: number): string => `"${version}"`;

export type IfMatch = { any: true } | { any: false; tags: { weak: boolean; opaque: string }[] };

// One list element: an optional entity-tag (weak or strong), then a comma or the end. Tags may contain commas.
const LIST_ELEMENT = /[ \t]*(?:(W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|$)/y;

/**
 * Parses If-Match (RFC 9110 §13.1.1): `*`, or a comma list of entity-tags (empty list elements are
 * allowed, as #list says). Returns null when the header is malformed.
 */
export function parseIfMatch(header: string): IfMatch | null {
  if (header.trim() === '*') return { any: true };
  const tags: { weak: boolean; opaque: string }[] = [];
  for (let at = 0; at < header.length;) {
    LIST_ELEMENT.lastIndex = at;
    const m = LIST_ELEMENT.exec(header);
    if (!m) return null;
    if (m[2] !== undefined) tags.push({ weak: m[1] !== undefined, opaque: m[2] });
    if (m[3] === '') break;
    at = LIST_ELEMENT.lastIndex;
  }
  return tags.length > 0 ? { any: false, tags } : null;
}

/** Strong comparison: a weak tag never matches, `*` matches any existing resource. */
export function ifMatchAllows(header: string | null, currentEtag: string): boolean {
  if (header === null) return true;
  const parsed = parseIfMatch(header);
  if (!parsed) return false;
  if (parsed.any) return true;
  return parsed.tags.some((tag) => !tag.weak && `"${tag.opaque}"` === currentEtag);
}

/**
 * The versions If-Match allows, for a conditional UPDATE: null for "any" (no header, or `*`), else the
 * versions whose ETag is exactly one of the strong tags (an empty list when none could ever match).
 * Exact: `"0379"` names no version, since strongEtag(379) is `"379"` (RFC 9110 §8.8.3.2).
 */
export function ifMatchVersions(header: string | null): number[] | null {
  if (header === null) return null;
  const parsed = parseIfMatch(header);
  if (!parsed) return [];
  if (parsed.any) return null;
  return parsed.tags
    .filter((tag) => !tag.weak && /^[1-9][0-9]{0,8}$/.test(tag.opaque))
    .map((tag) => Number(tag.opaque))
    .filter((version) => ifMatchAllows(header, strongEtag(version)));
}

/** 412 `precondition_failed` unless If-Match (when sent) names the current ETag. */
export function requireIfMatch(header: string | null, currentEtag: string): void {
  if (!ifMatchAllows(header, currentEtag)) throw new ApiError('precondition_failed');
}
