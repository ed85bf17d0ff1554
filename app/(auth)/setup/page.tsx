import type { Metadata } from 'next';
import Link from 'next/link';
import { BrandHeading } from '@/components/ui/brand-heading';
import { consoleIsSetUp } from '@/lib/onboarding/setup-service';
import { SetupForm } from './setup-form';

export const metadata: Metadata = { title: 'Set up' };

/** The first administrator's page, reached by the one-time URL the server logs while it has no users. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  // Once anyone can sign in every setup link is void: say so rather than show a form that can only fail.
  const setUp = await consoleIsSetUp();
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <BrandHeading title={setUp ? 'The console is set up' : 'Set up the console'} className="mb-8 text-center">
          {setUp ? 'Its first administrator already exists.' : 'Make the first administrator and their organization.'}
        </BrandHeading>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          {setUp ? (
            <div className="space-y-3">
              <p className="text-sm text-slate-700">
                This setup link is no longer needed. Sign in with your account, or ask an administrator to invite you.
              </p>
              <Link href="/login" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
                Sign in
              </Link>
            </div>
          ) : token ? (
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
