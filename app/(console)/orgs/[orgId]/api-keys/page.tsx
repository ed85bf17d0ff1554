import type { Metadata } from 'next';
import { ApiKeysView } from './_components/api-keys-view';

export const metadata: Metadata = { title: 'API keys' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  return <ApiKeysView orgId={orgId} />;
}
