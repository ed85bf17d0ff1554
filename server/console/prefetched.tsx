import 'server-only';
import { HydrationBoundary } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { prefetched, type Read } from '@/server/console/prefetch';
import { ServerClock } from '../../components/console/time';

/**
 * A part of a page rendered on the server with what it reads first: the reads' answers go to the browser with the
 * HTML (react-query's `HydrationBoundary`), and the server's clock with them, so relative times ("3 minutes ago")
 * hydrate to the text the server wrote (components/console/time.tsx).
 */
export async function Prefetched({ reads, children }: { reads: Read[]; children: ReactNode }) {
  const { state, now } = await prefetched(...reads);
  return (
    <HydrationBoundary state={state}>
      <ServerClock now={now}>{children}</ServerClock>
    </HydrationBoundary>
  );
}
