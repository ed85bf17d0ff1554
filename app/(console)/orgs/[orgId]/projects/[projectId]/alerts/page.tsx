import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/states';
import { AlertsView } from './_components/alerts-view';

export const metadata: Metadata = { title: 'Alerts' };

export default async function Page({ params }: { params: Promise<{ orgId: string; projectId: string }> }) {
  const { orgId, projectId } = await params;
  // Read in the browser, refreshed every 30 s while visible: what fires changes faster than a page is read.
  return (
    <>
      <PageHeader
        title="Alerts"
        description="What this project's Alertmanager API received and has not resolved: firing first, then what silences mute."
      />
      <AlertsView orgId={orgId} projectId={projectId} />
    </>
  );
}
