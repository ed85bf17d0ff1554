import type { Metadata } from 'next';
import { NotFoundPanel } from '@/components/console/not-found-panel';

export const metadata: Metadata = { title: 'Not found' };

export default function NotFound() {
  return (
    <main className="px-4 py-24">
      <NotFoundPanel />
    </main>
  );
}
