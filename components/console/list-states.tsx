import type { ReactNode } from 'react';
import { ErrorState, TableSkeleton } from '@/components/ui/states';

/** What a list's states need of its query: a `PagedList` (lib/console/paged-list), or a query it waits on. */
type ListQuery = {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
  items?: readonly unknown[];
};

/**
 * Every console list's four states in one place: placeholder rows of the table's own height while it loads (no
 * layout jump), an announced error with a retry, what it says when it has nothing, and else the list itself.
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
  if (pending) return <TableSkeleton rows={rows} columns={columns} label={loading} />;
  if (list.isError)
    return <ErrorState title={errorTitle} message={list.error?.message ?? ''} onRetry={() => void list.refetch()} />;
  if (empty !== undefined && list.items?.length === 0) return empty;
  return children;
}
