import type { ReactNode } from 'react';
import { ErrorState, TableSkeleton } from '@/components/ui/states';
import { searchAnnouncement, type SearchStatus } from '@/lib/console/search-progress';
import { isSearching, SearchingPanel } from './search-progress';

/** What a list's states need of its query: a `PagedList` (lib/console/paged-list), or a query it waits on. */
type ListQuery = {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
  items?: readonly unknown[];
  hasNextPage?: boolean;
  /** A list that searches (`usePagedList`'s `search`): where its search stands. */
  search?: SearchStatus;
  loadMore?: () => void;
};

/**
 * Every console list's four states in one place: placeholder rows of the table's own height while it loads (no
 * layout jump), an announced error with a retry, what it says when it has nothing, and else the list itself.
 * A search with nothing found yet but more to look through shows how far it looked instead of "nothing", and a
 * list that searches keeps one live region, so a screen reader hears the search go on, pause and end.
 */
export function ListStates({
  list,
  loading,
  columns,
  rows,
  pending = list.isPending,
  errorTitle,
  empty,
  children,
}: {
  list: ListQuery;
  /** The placeholder's name for screen readers, e.g. "Loading bots". */
  loading: string;
  /** The placeholder's columns and rows, as many as the table will have. */
  columns: number;
  rows?: number;
  /** Loading for longer than the list alone (its permissions too); the list's own pending state by default. */
  pending?: boolean;
  errorTitle?: string;
  /** Shown when the list has no items; without it an empty list renders `children` like any other. */
  empty?: ReactNode;
  children: ReactNode;
}) {
  const body = pending ? (
    <TableSkeleton rows={rows} columns={columns} label={loading} />
  ) : list.isError ? (
    <ErrorState title={errorTitle} message={list.error?.message ?? ''} onRetry={() => void list.refetch()} />
  ) : list.items?.length === 0 && isSearching(list.search) && list.loadMore ? (
    <SearchingPanel search={list.search} loadMore={list.loadMore} />
  ) : empty !== undefined && list.items?.length === 0 && !list.hasNextPage ? (
    empty
  ) : (
    children
  );
  if (!list.search) return body;
  // Mounted with the list, whatever it shows, so that each change of its text is announced.
  return (
    <>
      {body}
      <p role="status" className="sr-only">
        {pending || list.isError ? '' : searchAnnouncement(list.search, list.items?.length ?? 0)}
      </p>
    </>
  );
}
