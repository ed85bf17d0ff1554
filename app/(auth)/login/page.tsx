import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { BrandHeading } from '@/components/ui/brand-heading';
import { authOptions } from '@/lib/auth/next-auth';
import { safeReturnPath } from '@/lib/auth/sign-in-schema';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; reason?: string }>;
}) {
  const { callbackUrl, reason } = await searchParams;
  if (await getServerSession(authOptions)) {
    if (reason !== 'ended') redirect(safeReturnPath(callbackUrl));
  }
  const sso = authOptions.providers.some((provider) => provider.id === 'oidc');
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <BrandHeading title="Sign in to the console" className="mb-8 text-center">
          API keys, queue subscriptions and alert silences.
        </BrandHeading>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          {(reason === 'setup' || reason === 'joined') && (
            <p role="status" className="mb-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
              {reason === 'setup'
                ? 'The console is set up: sign in with the email and password you chose.'
                : 'Your account is ready and you have joined the organization: sign in to continue.'}
            </p>
          )}
          {reason === 'ended' && (
            <p role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Your session has ended. Sign in again to continue.
            </p>
          )}
          <SignInForm returnTo={safeReturnPath(callbackUrl)} sso={sso} />
        </div>
      </div>
    </main>
  );
}
