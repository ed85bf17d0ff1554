'use client';

import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/states';
import { searchProgressText, type SearchStatus } from '@/lib/console/search-progress';

/** What a searching list offers: its status, and a button to search older rows (pending while it searches itself). */
type Searching = { search: SearchStatus; loadMore: () => void };

const moreButton = ({ search, loadMore }: Searching) => (
  <Button variant="secondary" size="sm" pending={search.step === 'fill'} onClick={loadMore}>
    Search older {search.noun}
  </Button>
);

/**
 * In place of the rows while a search has found nothing yet but has more to look through: the empty state's own
 * box, so the list's final "nothing matches" takes its place without a jump, and never claims it early.
 */
export function SearchingPanel(list: Searching) {
  return (
    <EmptyState title={list.search.step === 'fill' ? 'Searching…' : 'Search paused'} action={moreButton(list)}>
      {searchProgressText(list.search)}
    </EmptyState>
  );
}

/** Under the rows while a search has found less than a page and has more to look through. */
export function SearchingFooter(list: Searching) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 p-3 text-sm text-slate-600">
      <p>
        {list.search.step === 'fill' && 'Searching… '}
        {searchProgressText(list.search)}
      </p>
      {moreButton(list)}
    </div>
  );
}

/** Whether a list is still looking (or waiting to be asked to look further) with less than a page found. */
export const isSearching = (search: SearchStatus | undefined): search is SearchStatus =>
  search?.step === 'fill' || search?.step === 'paused';
