'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { runMutation } from '@/components/console/feedback';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { ErrorState } from '@/components/ui/states';
import { ApiRequestError } from '@/lib/api-client';
import { useDecideDeviceAuthorization, useDeviceAuthorization } from '@/lib/oauth/queries';
import { userCodeForm, type UserCodeForm } from '@/lib/oauth/schema';
import type { DeviceAuthorizationView } from '@/lib/oauth/schema';

const card = 'rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200';
const normalize = (code: string) => code.trim().toUpperCase();

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function CodeForm({ initialCode, onSubmit }: { initialCode: string; onSubmit: (code: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UserCodeForm>({ resolver: zodResolver(userCodeForm), defaultValues: { userCode: initialCode } });
  return (
    <form
      onSubmit={handleSubmit((values) => onSubmit(normalize(values.userCode)))}
      noValidate
      className={`${card} space-y-2`}
    >
      <p className="mb-3 text-sm text-slate-600">
        Enter the code shown in your terminal by <code className="font-mono">svc login</code>.
      </p>
      <TextField
        id="user-code"
        label="Code"
        error={errors.userCode?.message}
        autoFocus
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="WDJB-MJHT"
        className="font-mono tracking-widest uppercase"
        {...register('userCode')}
      />
      <Button type="submit" className="w-full">
        Continue
      </Button>
    </form>
  );
}

function Decided({ authorization }: { authorization: DeviceAuthorizationView }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const approved = authorization.status === 'approved';
  return (
    <div className={card} role="status">
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        {approved ? 'Device approved' : 'Device login denied'}
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        {approved
          ? `${authorization.clientName} is now logged in as you. You can close this page and return to your terminal.`
          : `${authorization.clientName} was refused and received no access. You can close this page.`}
      </p>
    </div>
  );
}

function Review({ userCode, onCancel }: { userCode: string; onCancel: () => void }) {
  const lookup = useDeviceAuthorization(userCode);
  const decide = useDecideDeviceAuthorization(userCode);
  const error = lookup.error ?? decide.error;
  // The outcome card says what happened; the toast announces it too, and a failure is shown in place.
  const decideAs = (decision: 'approve' | 'deny') =>
    void runMutation(() => decide.mutateAsync(decision), {
      success: decision === 'approve' ? 'Device login approved.' : 'Device login denied.',
      failure: 'Not decided',
      placeIssues: () => false,
    });

  if (lookup.isPending) {
    return (
      <div className={card} role="status" aria-label="Looking up the code">
        <div className="h-5 w-40 animate-pulse rounded bg-slate-200" />
        <div className="mt-4 h-16 animate-pulse rounded bg-slate-100" />
      </div>
    );
  }
  if (error) {
    const title =
      error instanceof ApiRequestError && error.status === 404 ? 'This code cannot be used' : 'Something went wrong';
    return (
      <div className="space-y-4">
        <ErrorState title={title} message={error.message} />
        <Button variant="secondary" onClick={onCancel}>
          Enter another code
        </Button>
      </div>
    );
  }
  const authorization = lookup.data!;
  if (authorization.status !== 'pending') return <Decided authorization={authorization} />;
  return (
    <section className={card} aria-labelledby="review-heading">
      <h2 id="review-heading" className="text-lg font-semibold">
        {authorization.clientName} wants to access your account
      </h2>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">Code</dt>
        <dd className="font-mono font-semibold tracking-widest">{authorization.userCode}</dd>
        <dt className="text-slate-500">Application</dt>
        <dd>
          {authorization.clientName} <span className="text-slate-500">({authorization.clientId})</span>
        </dd>
        <dt className="text-slate-500">Requested</dt>
        <dd>{formatWhen(authorization.createdAt)}</dd>
        <dt className="text-slate-500">Code expires</dt>
        <dd>{formatWhen(authorization.expiresAt)}</dd>
      </dl>
      <p className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        Approve only if you just ran <code className="font-mono">svc login</code> and your terminal shows this same
        code. The CLI will act as you, with all of your access, until you run{' '}
        <code className="font-mono">svc logout</code>.
      </p>
      <div className="mt-6 flex gap-3">
        <Button
          className="flex-1"
          pending={decide.isPending && decide.variables === 'approve'}
          disabled={decide.isPending}
          onClick={() => decideAs('approve')}
        >
          Approve
        </Button>
        <Button
          variant="secondary"
          className="flex-1"
          pending={decide.isPending && decide.variables === 'deny'}
          disabled={decide.isPending}
          onClick={() => decideAs('deny')}
        >
          Deny
        </Button>
      </div>
    </section>
  );
}

/** Enter (or confirm) the code, see what is asking, then approve or deny it through the /v1 API. */
export function DeviceApproval({ initialCode }: { initialCode: string }) {
  const [userCode, setUserCode] = useState<string | null>(
    userCodeForm.safeParse({ userCode: initialCode }).success ? normalize(initialCode) : null,
  );
  if (userCode === null) return <CodeForm initialCode={initialCode} onSubmit={setUserCode} />;
  return <Review key={userCode} userCode={userCode} onCancel={() => setUserCode(null)} />;
}
