import { HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { GET as countSilences } from '@/app/v1/organizations/[orgId]/projects/[projectId]/obs/silences/counts/route';
import { PageHeader } from '@/components/ui/states';
import { prefetched } from '@/lib/console/server-prefetch';
import { silenceKeys } from '@/lib/silences/keys';
import { SilencesView } from './_components/silences-view';

export const metadata: Metadata = { title: 'Silences' };

export default async function Page({ params }: { params: Promise<{ orgId: string; projectId: string }> }) {
  const { orgId, projectId } = await params;
  // The tab counts come with the page, so the tabs and the search render on the server; the list itself, whose
  // times read in the browser's time zone, still loads in the browser.
  const state = await prefetched({
    queryKey: silenceKeys.counts(orgId, projectId),
    handler: countSilences,
    path: `/v1/organizations/${orgId}/projects/${projectId}/obs/silences/counts`,
    params: { orgId, projectId },
  });
  return (
    <>
      <PageHeader title="Silences" description="Matcher-based suppressions of alerts, each with a start and an end." />
      <HydrationBoundary state={state}>
        <SilencesView orgId={orgId} projectId={projectId} />
      </HydrationBoundary>
    </>
  );
}
