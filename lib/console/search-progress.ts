// How far a searched list has looked, from its loaded pages alone: a short `q` may answer a page with fewer items
// than asked for, even none, and a cursor to go on (docs/api.md, "Search").

/** Pages a list fetches on its own per action of the person (opening it, "Search older …"): then it asks. */
export const SEARCH_PAGES_PER_ACTION = 4;

/** Where one action of the person started: how many pages and items were loaded then. */
export type SearchAction = { pages: number; items: number };

/** What a list that searches tells its states (components/console/list-states.tsx). */
export type SearchStatus = {
  /** The search text, or undefined when the list is not searched. */
  q: string | undefined;
  /** What the list holds, plural: "keys", "expired silences". */
  noun: string;
  /**
   * `fill`: fewer items than a page since the action, and a cursor: the list fetches on by itself.
   * `paused`: the same after SEARCH_PAGES_PER_ACTION pages: the person decides whether to search older rows.
   * `full`: a page's worth since the action; more with "Load more". `done`: no cursor, nothing more matches.
   */
  step: 'fill' | 'paused' | 'full' | 'done';
  /** Rows the server examined: the newest `searched` of the list, or `searched` older ones since the action. */
  searched: number;
  newest: boolean;
  /** Matches among those rows. */
  found: number;
};

/**
 * The status of a searched list whose server examines `walk` rows per short page. A page shorter than `pageSize`
 * with a cursor after it is exactly one walk; a full page may be less, so only runs of short pages are counted.
 */
export function searchStatus({
  q,
  noun,
  walk,
  pageSize,
  pageItems,
  hasNextPage,
  since,
}: {
  q: string | undefined;
  noun: string;
  walk: number;
  pageSize: number;
  /** How many items each loaded page holds, in order. */
  pageItems: readonly number[];
  hasNextPage: boolean;
  since: SearchAction;
}): SearchStatus {
  const items = pageItems.reduce((sum, n) => sum + n, 0);
  const pages = pageItems.length;
  const step = !hasNextPage
    ? 'done'
    : items - since.items >= pageSize
      ? 'full'
      : pages - since.pages < SEARCH_PAGES_PER_ACTION
        ? 'fill'
        : 'paused';
  const newest = pageItems.every((n) => n < pageSize);
  return {
    q,
    noun,
    step,
    searched: (newest ? pages : pages - since.pages) * walk,
    newest,
    found: newest ? items : items - since.items,
  };
}

const count = (n: number) => n.toLocaleString('en');

/** "the 1,000 newest keys", or "500 older keys" after a page of matches was shown. */
function scope(status: SearchStatus): string {
  return status.newest
    ? `the ${count(status.searched)} newest ${status.noun}`
    : `${count(status.searched)} older ${status.noun}`;
}

function matches(status: SearchStatus): string {
  if (status.found === 0) return status.newest ? 'no match' : 'no more matches';
  return `${count(status.found)}${status.newest ? '' : ' more'} ${status.found === 1 ? 'match' : 'matches'}`;
}

/** How far the search looked: "No match in the 250 newest keys so far." while it goes on by itself. */
export function searchProgressText(status: SearchStatus): string {
  const found = matches(status);
  return status.step === 'fill'
    ? `${found[0].toUpperCase()}${found.slice(1)} in ${scope(status)} so far.`
    : `Searched ${scope(status)}: ${found} ${status.found === 0 ? 'yet' : 'so far'}.`;
}

/** What a screen reader hears of the search: when it starts, pauses and ends; nothing for a list not searched. */
export function searchAnnouncement(status: SearchStatus, items: number): string {
  if (status.q === undefined) return '';
  if (status.step === 'fill') return `Searching ${status.noun}…`;
  if (status.step === 'paused') return `${searchProgressText(status)} Search older ${status.noun} to go on.`;
  const found = `${count(items)} ${items === 1 ? 'match' : 'matches'}`;
  return status.step === 'done'
    ? `Search done: ${items === 0 ? 'no match' : found}.`
    : `${found} so far; load more for more.`;
}
