import type { Metadata } from 'next';
import { MembersView } from './_components/members-view';

export const metadata: Metadata = { title: 'Members' };

export default async function Page({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  return <MembersView orgId={orgId} />;
}
