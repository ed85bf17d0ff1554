import type { Metadata } from 'next';
import { GET as listBots } from '@/app/v1/organizations/[orgId]/bots/route';
import { Prefetched } from '@/server/console/prefetched';
import { botKeys } from '@/lib/bots/keys';
import { PICKER } from '@/lib/orgs/keys';
import { BotsView } from './_components/bots-view';

export const metadata: Metadata = { title: 'Bots' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  // The first page of bots comes with the page: the list is in the server's HTML, and the browser does not ask
  // for it again while hydrating.
  return (
    <Prefetched
      reads={[
        {
          queryKey: botKeys.list(orgId),
          handler: listBots,
          path: `/v1/organizations/${orgId}/bots`,
          params: { orgId },
          paged: true,
          pageSize: PICKER.pageSize,
        },
      ]}
    >
      <BotsView orgId={orgId} />
    </Prefetched>
  );
}
