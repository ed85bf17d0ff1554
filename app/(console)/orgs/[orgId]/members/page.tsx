import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Members' };

export default function Page() {
  return (
    <>
      <PageHeader title="Members" description="People in this organization and their policies." />
      <EmptyState title="Nothing here yet">Members will be listed here.</EmptyState>
    </>
  );
}
