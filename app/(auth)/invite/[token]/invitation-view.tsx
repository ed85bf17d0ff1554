'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { apiFetch, ApiRequestError } from '@/lib/api-client';
import type { InvitationPreview } from '@/lib/onboarding/queries';
import { Button } from '@/components/ui/button';
import { FormAlert } from '../../login/form-alert';
import { NewAccountForm } from './new-account-form';

type Loaded =
  { state: 'loading' } | { state: 'ok'; invitation: InvitationPreview } | { state: 'error'; message: string };

/** The refusals of accepting, in words a person can act on. */
export function acceptRefusal(error: unknown, organization: string): string {
  if (!(error instanceof ApiRequestError)) return 'Could not reach the server. Check your connection and try again.';
  if (error.status === 404)
    return 'This invitation no longer works: it was used, revoked or has expired. Ask for a new one.';
  if (error.code === 'invitation_email_mismatch')
    return 'This invitation is for another email address. Sign out, then open the link again, or sign in as the invited address.';
  if (error.code === 'already_member') return `You are already a member of ${organization}.`;
  return error.message;
}

export function InvitationView({ token, signedInAs }: { token: string; signedInAs: string | null }) {
  const router = useRouter();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [formError, setFormError] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  useEffect(() => {
    apiFetch<InvitationPreview>(`/v1/invitations/${encodeURIComponent(token)}`).then(
      ({ data }) => setLoaded({ state: 'ok', invitation: data }),
      (error: unknown) => setLoaded({ state: 'error', message: acceptRefusal(error, 'this organization') }),
    );
  }, [token]);

  if (loaded.state === 'loading')
    return (
      <p role="status" className="min-h-24 text-sm text-slate-600">
        Reading the invitation…
      </p>
    );
  if (loaded.state === 'error')
    return (
      <div className="min-h-24 space-y-3">
        <p role="alert" className="text-sm text-slate-800">
          {loaded.message}
        </p>
        <Link href="/login" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
          Go to sign in
        </Link>
      </div>
    );

  const { invitation } = loaded;
  const org = invitation.organization;
  const join = async () => {
    setFormError(null);
    setJoining(true);
    try {
      await apiFetch(`/v1/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST' });
      router.push(`/orgs/${org.id}`);
    } catch (error) {
      setFormError(acceptRefusal(error, org.name));
      setJoining(false);
    }
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-800 [overflow-wrap:anywhere]">
        <strong>{invitation.inviter.name}</strong> invited <strong>{invitation.email}</strong> to join{' '}
        <strong>{org.name}</strong>.
      </p>
      <FormAlert message={formError} />
      {signedInAs ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">You are signed in as {signedInAs}.</p>
          <Button className="w-full" pending={joining} onClick={() => void join()}>
            Join {org.name}
          </Button>
        </div>
      ) : (
        <>
          <NewAccountForm
            token={token}
            invitation={invitation}
            onRefused={(e) => setFormError(acceptRefusal(e, org.name))}
          />
          <p className="text-sm text-slate-600">
            Already have an account for {invitation.email}?{' '}
            <Link
              href={`/login?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}
              className="font-semibold text-indigo-700 hover:text-indigo-600"
            >
              Sign in to join
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
