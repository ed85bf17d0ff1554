import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/states';

export const metadata: Metadata = { title: 'API keys' };

export default function Page() {
  return (
    <>
      <PageHeader title="API keys" description="Credentials for code. A key acts as its owner, with exactly the owner's access." />
      <EmptyState title="Nothing here yet">API keys of this organization will be listed here.</EmptyState>
    </>
  );
}
