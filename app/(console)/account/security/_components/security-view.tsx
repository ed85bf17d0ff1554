'use client';

import { BackToConsoleBar } from '@/components/console/back-to-console-bar';
import { useConsoleUser } from '@/components/console/user-context';
import { ErrorState, PageHeader } from '@/components/ui/states';
import { useSecurity } from '@/lib/second-factor/queries';
import { PasskeysSection } from './passkeys-section';
import { TotpSection } from './totp-section';

/** The signed-in person's own second factors; reached from the user menu, or sent here by an organization's policy. */
export function SecurityView({ required }: { required: boolean }) {
  const user = useConsoleUser();
  const security = useSecurity();
  const hasFactor = !!security.data && (security.data.totp.enabled || security.data.passkeys.length > 0);
  return (
    <div className="min-h-screen">
      <BackToConsoleBar narrow>
        <p className="min-w-0 truncate text-sm text-slate-600">{user.email}</p>
      </BackToConsoleBar>
      <main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-6 sm:px-6 lg:py-8">
        <PageHeader
          title="Security"
          description="A second factor keeps your account safe when your password is not: sign-in asks for it, and so do changes that mint credentials."
        />
        {required && !hasFactor && (
          <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Your organization requires a second factor. Set up an authenticator app or add a passkey to continue.
          </p>
        )}
        {security.isError ? (
          <ErrorState
            message={security.error instanceof Error ? security.error.message : 'Could not load your second factors.'}
            onRetry={() => void security.refetch()}
          />
        ) : !security.data ? (
          <p className="text-sm text-slate-600" role="status">
            Loading…
          </p>
        ) : (
          <>
            <TotpSection security={security.data} />
            <PasskeysSection security={security.data} />
          </>
        )}
      </main>
    </div>
  );
}
