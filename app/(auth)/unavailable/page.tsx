import type { Metadata } from 'next';
import Link from 'next/link';
import { safeReturnPath } from '@/lib/auth/sign-in-schema';

export const metadata: Metadata = { title: 'Temporarily unavailable' };

/** Where console pages send people while the database cannot be reached: no data, just a way back. */
export default async function UnavailablePage({ searchParams }: { searchParams: Promise<{ returnTo?: string }> }) {
  const { returnTo } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div role="alert" className="w-full max-w-sm rounded-lg bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold tracking-tight">Temporarily unavailable</h1>
        <p className="mt-2 text-sm text-slate-600">
          The console cannot reach its database right now. Nothing was lost; try again in a few seconds.
        </p>
        <Link
          href={safeReturnPath(returnTo)}
          className="mt-4 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Try again
        </Link>
      </div>
    </main>
  );
}
