import type { Metadata } from 'next';
import { GET as countSilences } from '@/app/v1/organizations/[orgId]/projects/[projectId]/obs/silences/counts/route';
import { GET as listSilences } from '@/app/v1/organizations/[orgId]/projects/[projectId]/obs/silences/route';
import { CODE_ACTS } from '@/server/console/code-acts';
import { Prefetched } from '@/server/console/prefetched';
import { PageHeader } from '@/components/ui/states';
import { searchText } from '@/lib/console/search-text';
import { silenceKeys } from '@/lib/silences/keys';
import { SilencesView } from './_components/silences-view';

export const metadata: Metadata = { title: 'Silences' };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ orgId: string; projectId: string }>;
  searchParams: Promise<{ q?: string | string[] }>;
}) {
  const { orgId, projectId } = await params;
  const q = searchText((await searchParams).q);
  const base = `/v1/organizations/${orgId}/projects/${projectId}/obs/silences`;
  // The tab counts and the first page of the tab that opens (Active) come with the page: tabs, search and list
  // are in the server's HTML.
  return (
    <>
      <PageHeader title="Silences" description="Matcher-based suppressions of alerts, each with a start and an end." />
      <Prefetched
        reads={[
          {
            queryKey: silenceKeys.counts(orgId, projectId),
            handler: countSilences,
            path: `${base}/counts`,
            params: { orgId, projectId },
          },
          {
            queryKey: silenceKeys.list(orgId, projectId, 'active', q),
            handler: listSilences,
            path: base,
            params: { orgId, projectId },
            search: { state: 'active', q },
            paged: true,
          },
        ]}
      >
        <SilencesView orgId={orgId} projectId={projectId} updateAct={CODE_ACTS.updateSilence} />
      </Prefetched>
    </>
  );
}
