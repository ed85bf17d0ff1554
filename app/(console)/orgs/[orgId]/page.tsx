import type { Metadata } from 'next';
import { Overview } from './_components/overview';

export const metadata: Metadata = { title: 'Overview' };

export default async function OrganizationHome({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  return <Overview orgId={orgId} />;
}
