'use client';

import { useMemo } from 'react';
import { useInfiniteQuery, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { listSearch, PAGE_SIZE } from './page-size';

/** Every `/v1` list's shape (lib/http/pagination.ts `pageOf`). */
type Page<T> = { items: T[]; nextCursor: string | null };

export { PAGE_SIZE };

/**
 * The console's one way to read a list: the API's own pages, fetched as the person asks for more
 * ("Load more", `LoadMore` in components/console). Counts shown beside a list come from the server,
 * never from the pages loaded so far.
 */
export function usePagedList<T>(
  queryKey: QueryKey,
  path: string,
  params: Record<string, string | undefined> = {},
  options: { enabled?: boolean; pageSize?: number; refetchInterval?: number } = {},
) {
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => apiGet<Page<T>>(`${path}?${listSearch(params, options.pageSize, pageParam)}`),
    getNextPageParam: (last) => last.nextCursor,
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval,
  });
  // Memoized on the pages, so a list's items keep their identity between renders until a page changes.
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { ...query, items };
}

export type PagedList<T> = ReturnType<typeof usePagedList<T>>;

/** Replaces one item, wherever it sits in the loaded pages, with the server's answer to a change. */
export function replaceInPages<T extends { id: string }>(client: QueryClient, queryKey: QueryKey, saved: T): void {
  client.setQueryData<InfiniteData<Page<T>>>(
    queryKey,
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.map((item) => (item.id === saved.id ? saved : item)),
        })),
      },
  );
}
