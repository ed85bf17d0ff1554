import 'server-only';
import { dehydrate, QueryClient, type DehydratedState, type QueryKey } from '@tanstack/react-query';
import { headers } from 'next/headers';
import { NextRequest } from 'next/server';
import { PEER_HEADER } from '@/lib/http/public-origin';

type RouteHandler = (req: NextRequest, next: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** One read for the first render: the hook's query key, the route handler, and the request it would have sent. */
export type Read = {
  queryKey: QueryKey;
  handler: RouteHandler;
  path: string;
  params?: Record<string, string>;
  search?: Record<string, string>;
  /** A list the console reads as an infinite query (lib/console/paged-list.ts): stored as its first page. */
  paged?: boolean;
};

/** Runs `reads` together and gives what they found, for `<HydrationBoundary state={…}>`. */
export async function prefetched(...reads: Read[]): Promise<DehydratedState> {
  const client = new QueryClient();
  await Promise.all(reads.map((read) => prefetch(client, read)));
  return dehydrate(client);
}

/**
 * Reads a `/v1` resource for the console's first render through its own route handler, in process, with the
 * browser's own cookie: the same credential, tenant, permission and rate-limit checks as the request the page
 * would otherwise send after hydrating. The answer goes into `client` under the key the page's hook reads, so
 * the server renders the page with it and the browser starts with it (`HydrationBoundary`). Anything but 200
 * leaves the cache alone: the browser then asks as before and shows what it gets.
 */
async function prefetch(client: QueryClient, request: Read): Promise<void> {
  const incoming = await headers();
  const url = new URL(request.path, 'http://127.0.0.1');
  for (const [name, value] of Object.entries(request.search ?? {})) url.searchParams.set(name, value);
  const forwarded: Record<string, string> = { cookie: incoming.get('cookie') ?? '' };
  // The connection's signed address (scripts/start.mjs) and what a proxy said: the limits key on the same client.
  for (const name of ['user-agent', PEER_HEADER, 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']) {
    const value = incoming.get(name);
    if (value) forwarded[name] = value;
  }
  try {
    const res = await request.handler(new NextRequest(url, { headers: forwarded }), {
      params: Promise.resolve(request.params ?? {}),
    });
    if (res.status !== 200) return;
    const body: unknown = await res.json();
    // An infinite query's first page, from no cursor.
    client.setQueryData(request.queryKey, request.paged ? { pages: [body], pageParams: [null] } : body);
  } catch {
    // The browser asks again after hydrating, and shows the error if there is one.
  }
}
