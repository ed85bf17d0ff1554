import { describe, expect, it } from 'vitest';
import { SEARCH_PAGES_PER_ACTION, searchAnnouncement, searchProgressText, searchStatus } from './search-progress';

const base = { q: 'ab', noun: 'keys', walk: 250, pageSize: 50, since: { pages: 0, items: 0 } };

describe('a searched list that answers short pages', () => {
  it('fetches on while its pages hold less than a page and a cursor remains', () => {
    const status = searchStatus({ ...base, pageItems: [0, 3], hasNextPage: true });
    expect(status).toMatchObject({ step: 'fill', searched: 500, newest: true, found: 3 });
    expect(searchProgressText(status)).toBe('3 matches in the 500 newest keys so far.');
    expect(searchAnnouncement(status, 3)).toBe('Searching keys…');
  });

  it('pauses after its pages for one action and says how far it looked', () => {
    const status = searchStatus({ ...base, pageItems: Array(SEARCH_PAGES_PER_ACTION).fill(0), hasNextPage: true });
    expect(status.step).toBe('paused');
    expect(searchProgressText(status)).toBe('Searched the 1,000 newest keys: no match yet.');
    expect(searchAnnouncement(status, 0)).toBe(
      'Searched the 1,000 newest keys: no match yet. Search older keys to go on.',
    );
  });

  it('counts a new action from where it started: older rows, and the matches found since', () => {
    const since = { pages: 1, items: 50 };
    const status = searchStatus({ ...base, since, pageItems: [50, 1, 0, 0, 0], hasNextPage: true });
    expect(status).toMatchObject({ step: 'paused', searched: 1000, newest: false, found: 1 });
    expect(searchProgressText(status)).toBe('Searched 1,000 older keys: 1 more match so far.');
    expect(searchStatus({ ...base, since, pageItems: [50, 0], hasNextPage: true }).step).toBe('fill');
  });

  it('is full once an action brought a page of matches, and done only when no cursor remains', () => {
    expect(searchStatus({ ...base, pageItems: [20, 30], hasNextPage: true }).step).toBe('full');
    const done = searchStatus({ ...base, pageItems: [0, 0], hasNextPage: false });
    expect(done.step).toBe('done');
    expect(searchAnnouncement(done, 0)).toBe('Search done: no match.');
    expect(searchAnnouncement(searchStatus({ ...base, pageItems: [1], hasNextPage: false }), 1)).toBe(
      'Search done: 1 match.',
    );
  });

  it('announces nothing for a list without a search', () => {
    const status = searchStatus({ ...base, q: undefined, pageItems: [50], hasNextPage: true });
    expect(searchAnnouncement(status, 50)).toBe('');
  });
});
