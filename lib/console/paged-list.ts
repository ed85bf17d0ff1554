'use client';

import { useEffect, useMemo, useState } from 'react';
import { hashKey, useInfiniteQuery, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { listSearch, PAGE_SIZE } from './page-size';
import { searchStatus, type SearchAction, type SearchStatus } from './search-progress';

/** Every `/v1` list's shape (lib/http/pagination.ts `pageOf`). */
type Page<T> = { items: T[]; nextCursor: string | null };

export { PAGE_SIZE };

/** A list whose `q` may answer short pages: how many rows the server examines per page, and what they are. */
export type ListSearch = { walk: number; noun: string };

/**
 * The console's one way to read a list: the API's own pages, fetched as the person asks for more
 * ("Load more", `LoadMore` in components/console). Counts shown beside a list come from the server,
 * never from the pages loaded so far. A list with `search` fetches on by itself while a short search's pages
 * hold less than one page (a few pages per action of the person, `search` then says how far it looked).
 */
export function usePagedList<T>(
  queryKey: QueryKey,
  path: string,
  params: Record<string, string | readonly string[] | undefined> = {},
  options: { enabled?: boolean; pageSize?: number; refetchInterval?: number; search?: ListSearch } = {},
) {
  const query = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => apiGet<Page<T>>(`${path}?${listSearch(params, options.pageSize, pageParam)}`),
    getNextPageParam: (last) => last.nextCursor,
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval,
    // A list refreshed on a timer (alerts, silences) asks only while its page is visible.
    refetchIntervalInBackground: false,
    // Back from another tab or window, a list asks again however fresh it was (the default waits out `staleTime`):
    // what changed meanwhile, by another person or through the API, shows without a reload.
    refetchOnWindowFocus: 'always',
  });
  // Memoized on the pages, so a list's items keep their identity between renders until a page changes.
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);

  // Each action of the person (a new search, "Load more") counts its pages and matches from where it started.
  const hash = hashKey(queryKey);
  const [action, setAction] = useState<SearchAction & { hash: string }>({ hash, pages: 0, items: 0 });
  const since = action.hash === hash ? action : { pages: 0, items: 0 };
  const pages = query.data?.pages ?? [];
  const search: SearchStatus | undefined =
    options.search &&
    searchStatus({
      ...options.search,
      q: typeof params.q === 'string' ? params.q : undefined,
      pageSize: options.pageSize ?? PAGE_SIZE,
      pageItems: pages.map((p) => p.items.length),
      hasNextPage: query.hasNextPage,
      since,
    });
  const fillNow = search?.step === 'fill' && !query.isFetching && !query.isError;
  const { fetchNextPage } = query;
  useEffect(() => {
    // Never two at once (a second effect run): a fetch already on its way is kept, not restarted.
    if (fillNow) void fetchNextPage({ cancelRefetch: false });
  }, [fillNow, fetchNextPage]);
  const loadMore = () => {
    setAction({ hash, pages: pages.length, items: items.length });
    void fetchNextPage();
  };
  return { ...query, items, search, loadMore };
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
