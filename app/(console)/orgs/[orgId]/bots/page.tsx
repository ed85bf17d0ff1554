import type { Metadata } from 'next';
import { BotsView } from './_components/bots-view';

export const metadata: Metadata = { title: 'Bots' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  return <BotsView orgId={orgId} />;
}
