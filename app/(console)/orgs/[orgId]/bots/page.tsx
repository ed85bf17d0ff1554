import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Bots' };

export default function Page() {
  return (
    <>
      <PageHeader title="Bots" description="Non-human principals that own API keys." />
      <EmptyState title="Nothing here yet">Bots will be listed here.</EmptyState>
    </>
  );
}
