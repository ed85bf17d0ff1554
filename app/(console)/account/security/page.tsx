import type { Metadata } from 'next';
import { SecurityView } from './_components/security-view';

export const metadata: Metadata = { title: 'Security' };

export default async function SecurityPage({ searchParams }: { searchParams: Promise<{ required?: string }> }) {
  const { required } = await searchParams;
  return <SecurityView required={required === '1'} />;
}
