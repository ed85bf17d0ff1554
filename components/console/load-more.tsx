'use client';

import { Button } from '@/components/ui/button';

/** The footer of a paged list: "Load more" while the server has another page. */
export function LoadMore({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="border-t border-slate-100 p-3 text-center">
      <Button variant="secondary" size="sm" pending={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        Load more
      </Button>
    </div>
  );
}
