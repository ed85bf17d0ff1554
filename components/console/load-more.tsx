'use client';

import { Button } from '@/components/ui/button';
import type { SearchStatus } from '@/lib/console/search-progress';
import { isSearching, SearchingFooter } from './search-progress';

/** The footer of a paged list: "Load more" while the server has another page, or how far a short search looked. */
export function LoadMore({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; loadMore: () => void; search?: SearchStatus };
}) {
  if (!list.hasNextPage) return null;
  if (isSearching(list.search)) return <SearchingFooter search={list.search} loadMore={list.loadMore} />;
  return (
    <div className="border-t border-slate-100 p-3 text-center">
      <Button variant="secondary" size="sm" pending={list.isFetchingNextPage} onClick={list.loadMore}>
        Load more
      </Button>
    </div>
  );
}
