'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { describedBy, Field, Input } from '@/components/ui/field';
import { signInSchema, type SignInInput } from '@/lib/auth/sign-in-schema';

export function SignInForm({ returnTo, sso }: { returnTo: string; sso: boolean }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({ resolver: zodResolver(signInSchema) });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const result = await signIn('credentials', { ...values, redirect: false });
    if (!result || result.error) {
      setFormError(
        result?.error && result.error !== 'CredentialsSignin' ? result.error : 'Incorrect email or password.',
      );
      return;
    }
    router.replace(returnTo);
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <div
        role="alert"
        aria-live="assertive"
        className={formError ? 'mb-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800' : 'sr-only'}
      >
        {formError}
      </div>
      <Field id="email" label="Email" error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="username"
          autoFocus
          invalid={!!errors.email}
          {...describedBy('email', { error: errors.email })}
          {...register('email')}
        />
      </Field>
      <Field id="password" label="Password" error={errors.password?.message}>
        <Input
          type="password"
          autoComplete="current-password"
          invalid={!!errors.password}
          {...describedBy('password', { error: errors.password })}
          {...register('password')}
        />
      </Field>
      <Button type="submit" className="w-full" pending={isSubmitting}>
        Sign in
      </Button>
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
