'use client';

import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';

/**
 * After an account is made with the password just typed (setup, an invitation's new account): sign in with it, as
 * the sign-in form does, and open `destination`. Should that fail (a rate limit, say), the sign-in page says the
 * account is ready (`reason`) and returns there afterwards.
 */
export function useSignInOnce() {
  const router = useRouter();
  return async (credentials: { email: string; password: string }, destination: string, reason: 'setup' | 'joined') => {
    const result = await signIn('credentials', { ...credentials, redirect: false }).catch(() => undefined);
    if (result && !result.error) {
      router.replace(destination);
      router.refresh();
      return;
    }
    router.push(`/login?reason=${reason}&callbackUrl=${encodeURIComponent(destination)}`);
  };
}
