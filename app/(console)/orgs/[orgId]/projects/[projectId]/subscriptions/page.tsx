import type { Metadata } from 'next';
import { SubscriptionsView } from './_components/subscriptions-view';

export const metadata: Metadata = { title: 'Subscriptions' };

export default async function Page({ params }: { params: Promise<{ orgId: string; projectId: string }> }) {
  const { orgId, projectId } = await params;
  return <SubscriptionsView orgId={orgId} projectId={projectId} />;
}
