import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Subscriptions' };

export default function Page() {
  return (
    <>
      <PageHeader title="Subscriptions" description="Deliveries from a queue to a target." />
      <EmptyState title="Nothing here yet">Subscriptions of this project will be listed here.</EmptyState>
    </>
  );
}
