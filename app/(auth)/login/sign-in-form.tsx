'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, useSyncExternalStore } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { SECOND_FACTOR_REQUIRED, SECOND_FACTOR_WRONG, signInSchema, type SignInInput } from '@/lib/auth/sign-in-schema';
import { passkeyAssertion, passkeyFailure } from '@/lib/second-factor/queries';
import { FormAlert } from './form-alert';
import { SecondStep } from './second-step';

const noSubscription = () => () => {};

export function SignInForm({ returnTo, sso }: { returnTo: string; sso: boolean }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  // The password checked out and a second factor is asked for: the credentials wait here for the code.
  const [firstStep, setFirstStep] = useState<SignInInput | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({ resolver: zodResolver(signInSchema) });

  // Known only in the browser; the server render leaves the passkey button out.
  const passkeys = useSyncExternalStore(noSubscription, browserSupportsWebAuthn, () => false);

  const signedIn = () => {
    router.replace(returnTo);
    router.refresh();
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const result = await signIn('credentials', { ...values, redirect: false });
    if (result?.error === SECOND_FACTOR_REQUIRED) {
      setFirstStep(values);
      return;
    }
    if (!result || result.error) {
      setFormError(
        result?.error && result.error !== 'CredentialsSignin' ? result.error : 'Incorrect email or password.',
      );
      return;
    }
    signedIn();
  });

  /** A passkey alone signs in: it is something the person has, unlocked by something they are or know. */
  const signInWithPasskey = async (): Promise<string | null> => {
    let response;
    try {
      response = await passkeyAssertion();
    } catch (error) {
      return passkeyFailure(error);
    }
    const result = await signIn('passkey', { response: JSON.stringify(response), redirect: false });
    if (!result || result.error) {
      return result?.error && result.error !== 'CredentialsSignin'
        ? result.error
        : 'That passkey did not sign you in. It may have been removed from your account.';
    }
    signedIn();
    return null;
  };

  if (firstStep)
    return (
      <SecondStep
        passkeys={passkeys}
        onCode={async (code) => {
          const result = await signIn('credentials', { ...firstStep, code, redirect: false });
          if (result && !result.error) {
            signedIn();
            return null;
          }
          if (result?.error === SECOND_FACTOR_WRONG)
            return { field: 'That code did not work. Codes work once; wait for the next one, or use a recovery code.' };
          return { form: result?.error ?? 'Could not sign in. Try again.' };
        }}
        onPasskey={signInWithPasskey}
        onBack={() => setFirstStep(null)}
      />
    );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FormAlert message={formError} />
      <TextField
        id="email"
        label="Email"
        error={errors.email?.message}
        type="email"
        autoComplete="username"
        autoFocus
        {...register('email')}
      />
      <TextField
        id="password"
        label="Password"
        error={errors.password?.message}
        type="password"
        autoComplete="current-password"
        {...register('password')}
      />
      <Button type="submit" className="w-full" pending={isSubmitting}>
        Sign in
      </Button>
      {passkeys && (
        <Button
          variant="secondary"
          className="mt-3 w-full"
          pending={passkeyPending}
          onClick={async () => {
            setFormError(null);
            setPasskeyPending(true);
            const problem = await signInWithPasskey();
            setPasskeyPending(false);
            setFormError(problem);
          }}
        >
          Sign in with a passkey
        </Button>
      )}
      {sso && (
        <Button
          variant="secondary"
          className="mt-3 w-full"
          onClick={() => void signIn('oidc', { callbackUrl: returnTo })}
        >
          Sign in with single sign-on
        </Button>
      )}
    </form>
  );
}
