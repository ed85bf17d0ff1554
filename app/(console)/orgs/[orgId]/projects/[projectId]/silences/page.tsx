import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/states';

export const metadata: Metadata = { title: 'Silences' };

export default function Page() {
  return (
    <>
      <PageHeader title="Silences" description="Matcher-based suppressions of alerts." />
      <EmptyState title="Nothing here yet">Silences of this project will be listed here.</EmptyState>
    </>
  );
}
