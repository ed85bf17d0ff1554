import type { Metadata } from 'next';
import { WebhookDetailsView } from './_components/webhook-details-view';

export const metadata: Metadata = { title: 'Webhook' };

export default async function Page({ params }: { params: Promise<{ orgId: string; webhookId: string }> }) {
  const { orgId, webhookId } = await params;
  return <WebhookDetailsView orgId={orgId} webhookId={webhookId} />;
}
