// Shared by the console's lists (lib/console/paged-list.ts) and the server's first render of them
// (server/console/prefetch.ts), which cannot import values from a 'use client' module.

/** The page the console asks for, unless a list says otherwise (pickers read `PICKER`, lib/orgs/keys.ts). */
export const PAGE_SIZE = 50;

/** How often a list of live state (alerts, what silences mute) asks again while its page is visible (Alertmanager's UI: 30 s). */
export const LIVE_REFRESH_MS = 30_000;

/**
 * A list page's query string, as the console's hook (usePagedList) and the server's first read of it
 * (server/console/prefetch.ts) both send it: `limit`, then every filter that is set (a list repeats its parameter,
 * as the alerts' `filter`), then the cursor if any.
 */
export function listSearch(
  filters: Record<string, string | readonly string[] | undefined> = {},
  pageSize = PAGE_SIZE,
  cursor?: string | null,
): URLSearchParams {
  const search = new URLSearchParams({ limit: String(pageSize) });
  for (const [name, value] of Object.entries(filters)) {
    if (typeof value === 'string') search.set(name, value);
    else for (const each of value ?? []) search.append(name, each);
  }
  if (cursor) search.set('cursor', cursor);
  return search;
}
