import type { Metadata } from 'next';
import { GET as listRefusals } from '@/app/v1/organizations/[orgId]/projects/[projectId]/obs/alerts/refusals/route';
import { GET as listAlerts } from '@/app/v1/organizations/[orgId]/projects/[projectId]/obs/alerts/route';
import { PageHeader } from '@/components/ui/states';
import { alertKeys } from '@/lib/alerts/keys';
import type { Read } from '@/server/console/prefetch';
import { Prefetched } from '@/server/console/prefetched';
import { consoleOrigin } from '@/server/console/origin';
import { AlertsView } from './_components/alerts-view';

export const metadata: Metadata = { title: 'Alerts' };

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ orgId: string; projectId: string }>;
  searchParams: Promise<{ filter?: string | string[] }>;
}) {
  const { orgId, projectId } = await params;
  const given = (await searchParams).filter;
  const filters = typeof given === 'string' ? [given] : (given ?? []);
  const path = `/v1/organizations/${orgId}/projects/${projectId}/obs/alerts`;
  // Both sections' first pages and the last post with the refusals come with the page; the browser refreshes them every 30 s while it is visible.
  const reads: Read[] = (['firing', 'silenced'] as const).map((state) => ({
    queryKey: alertKeys.list(orgId, projectId, state, filters),
    handler: listAlerts,
    path,
    params: { orgId, projectId },
    search: { state, filter: filters },
    paged: true,
  }));
  reads.push({
    queryKey: alertKeys.refusals(orgId, projectId),
    handler: listRefusals,
    path: `${path}/refusals`,
    params: { orgId, projectId },
  });
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What this project's Alertmanager API received and has not resolved: firing first, then what silences mute."
      />
      <Prefetched reads={reads}>
        <AlertsView orgId={orgId} projectId={projectId} origin={await consoleOrigin()} />
      </Prefetched>
    </>
  );
}
