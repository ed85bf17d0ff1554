import type { Metadata } from 'next';
import { BrandHeading } from '@/components/ui/brand-heading';
import { SetupForm } from './setup-form';

export const metadata: Metadata = { title: 'Set up' };

/** The first administrator's page, reached by the one-time URL the server logs while it has no users. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <BrandHeading title="Set up the console" className="mb-8 text-center">
          Make the first administrator and their organization.
        </BrandHeading>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          {token ? (
            <SetupForm token={token} />
          ) : (
            <p role="alert" className="text-sm text-slate-700">
              This page needs the setup link the server writes to its log at start, with its token. Open that link.
            </p>
          )}
        </div>
      </div>
    </main>
  );
}
