import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui/states';
import { SilencesView } from './_components/silences-view';

export const metadata: Metadata = { title: 'Silences' };

export default async function Page({ params }: { params: Promise<{ orgId: string; projectId: string }> }) {
  const { orgId, projectId } = await params;
  return (
    <>
      <PageHeader title="Silences" description="Matcher-based suppressions of alerts, each with a start and an end." />
      <SilencesView orgId={orgId} projectId={projectId} />
    </>
  );
}
