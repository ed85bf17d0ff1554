import 'server-only';
import { dehydrate, QueryClient, type DehydratedState, type QueryKey } from '@tanstack/react-query';
import { headers } from 'next/headers';
import { NextRequest } from 'next/server';
import { cache } from 'react';
import { PEER_HEADER } from '@/lib/http/public-origin';
import { listSearch } from '../../lib/console/page-size';

type RouteHandler = (req: NextRequest, next: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** One read for the first render: the hook's query key, the route handler, and the request it would have sent. */
export type Read = {
  queryKey: QueryKey;
  handler: RouteHandler;
  path: string;
  params?: Record<string, string>;
  /** The query string's values, a list for a repeated parameter (`filter=…&filter=…`); unset ones are left out. */
  search?: Record<string, string | readonly string[] | undefined>;
  /**
   * A list the console reads as an infinite query (lib/console/paged-list.ts): asked for as its hook asks
   * (`listSearch`: `limit` of `pageSize`, default PAGE_SIZE, then `search`) and stored as its first page.
   */
  paged?: boolean;
  pageSize?: number;
};

/**
 * Runs `reads` together: what they found, for `<HydrationBoundary state={…}>`, and the server's clock when they
 * were answered, which relative times ("3 minutes ago") are measured against until the page is hydrated.
 */
export async function prefetched(...reads: Read[]): Promise<{ state: DehydratedState; now: number }> {
  const client = new QueryClient();
  await Promise.all(
    reads.map(async (read) => {
      const body = await serverRead(read);
      // An infinite query's first page, from no cursor.
      if (body !== undefined)
        client.setQueryData(read.queryKey, read.paged ? { pages: [body], pageParams: [null] } : body);
    }),
  );
  return { state: dehydrate(client), now: Date.now() };
}

/**
 * Reads a `/v1` resource for the console's first render through its own route handler, in process, with the
 * browser's own cookie: the same credential, tenant, permission and rate-limit checks as the request the page
 * would otherwise send after hydrating. `prefetched` puts the answer into a cache under the key the page's hook
 * reads, so the server renders the page with it and the browser starts with it (`HydrationBoundary`). Anything but
 * 200 gives undefined and leaves that cache alone: the browser then asks as before and shows what it gets.
 * A layout and its page asking for the same resource in one request read it once.
 */
export async function serverRead<T = unknown>(read: Omit<Read, 'queryKey'>): Promise<T | undefined> {
  const url = new URL(read.path, 'http://127.0.0.1');
  if (read.paged) url.search = listSearch(read.search, read.pageSize).toString();
  else {
    for (const [name, value] of Object.entries(read.search ?? {}))
      for (const each of typeof value === 'string' ? [value] : (value ?? [])) url.searchParams.append(name, each);
  }
  return (await readOnce(read.handler, url.toString(), JSON.stringify(read.params ?? {}))) as T | undefined;
}

const readOnce = cache(async (handler: RouteHandler, url: string, params: string): Promise<unknown> => {
  const incoming = await headers();
  const forwarded: Record<string, string> = { cookie: incoming.get('cookie') ?? '' };
  // The connection's signed address (scripts/start.mjs) and what a proxy said: the limits key on the same client.
  for (const name of ['user-agent', PEER_HEADER, 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']) {
    const value = incoming.get(name);
    if (value) forwarded[name] = value;
  }
  try {
    const res = await handler(new NextRequest(url, { headers: forwarded }), {
      params: Promise.resolve(JSON.parse(params) as Record<string, string>),
    });
    return res.status === 200 ? ((await res.json()) as unknown) : undefined;
  } catch {
    // The browser asks again after hydrating, and shows the error if there is one.
    return undefined;
  }
});
