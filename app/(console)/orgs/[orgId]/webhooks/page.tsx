import type { Metadata } from 'next';
import { WebhooksView } from './_components/webhooks-view';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  return <WebhooksView orgId={orgId} />;
}
