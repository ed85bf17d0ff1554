import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { GET as listBots } from '@/app/v1/organizations/[orgId]/bots/route';
import { botKeys } from '@/lib/bots/keys';
import { prefetched } from '@/lib/console/server-prefetch';
import { PICKER } from '@/lib/orgs/keys';
import { BotsView } from './_components/bots-view';

export const metadata: Metadata = { title: 'Bots' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  // The first page of bots comes with the page: the list is in the server's HTML, and the browser does not ask
  // for it again while hydrating.
  const state = await prefetched({
    queryKey: botKeys.list(orgId),
    handler: listBots,
    path: `/v1/organizations/${orgId}/bots`,
    params: { orgId },
    search: { limit: String(PICKER.pageSize) },
    paged: true,
  });
  return (
    <HydrationBoundary state={state}>
      <BotsView orgId={orgId} />
    </HydrationBoundary>
  );
}
