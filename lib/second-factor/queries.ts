'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { apiFetch, apiGet } from '../api-client';
import type { Security } from './schema';

// The browser's WebAuthn helpers load when a passkey is used, not with every console page (the sudo dialog that
// offers a passkey is on all of them).
const webauthn = () => import('@simplewebauthn/browser');

/** Query keys of the signed-in user's second factors; never inline string keys. */
export const securityKeys = { me: ['me', 'security'] as const };

export function useSecurity(enabled = true) {
  return useQuery({ queryKey: securityKeys.me, queryFn: () => apiGet<Security>('/v1/me/security'), enabled });
}

export type TotpEnrolment = { secret: string; otpauthUri: string };
export type PasskeyAdded = {
  passkey: Security['passkeys'][number];
  recoveryCodes: string[];
};

/**
 * The second-factor changes, as plain requests: their answers carry secrets (the TOTP secret, recovery codes) that
 * must not stay in react-query's mutation cache. Each refreshes the security summary afterwards.
 */
export function useSecurityActions() {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: securityKeys.me });
  const after = async <T>(work: Promise<{ data: T }>): Promise<T> => {
    try {
      return (await work).data;
    } finally {
      refresh();
    }
  };
  return {
    startTotp: () => after(apiFetch<TotpEnrolment>('/v1/me/totp', { method: 'POST' })),
    confirmTotp: (code: string) =>
      after(apiFetch<{ recoveryCodes: string[] }>('/v1/me/totp/confirm', { method: 'POST', body: { code } })),
    disableTotp: () => after(apiFetch<void>('/v1/me/totp', { method: 'DELETE' })),
    regenerateRecoveryCodes: () =>
      after(apiFetch<{ recoveryCodes: string[] }>('/v1/me/recovery-codes', { method: 'POST' })),
    addPasskey: async (name: string): Promise<PasskeyAdded> => {
      const { data: optionsJSON } = await apiFetch<PublicKeyCredentialCreationOptionsJSON>('/v1/me/passkeys/options', {
        method: 'POST',
      });
      const { startRegistration } = await webauthn();
      const response = await startRegistration({ optionsJSON });
      return after(apiFetch<PasskeyAdded>('/v1/me/passkeys', { method: 'POST', body: { name, response } }));
    },
    removePasskey: (id: string) => after(apiFetch<void>(`/v1/me/passkeys/${id}`, { method: 'DELETE' })),
  };
}

/** Asks the browser for an assertion of any passkey of this site (sign-in, or re-authentication). */
export async function passkeyAssertion() {
  const { data: optionsJSON } = await apiFetch<PublicKeyCredentialRequestOptionsJSON>('/v1/auth/passkey/options', {
    method: 'POST',
  });
  const { startAuthentication } = await webauthn();
  return startAuthentication({ optionsJSON });
}

/** What a WebAuthn failure means to the person: cancelled or timed out reads as such, not as a crash. */
export function passkeyFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return 'The passkey prompt was cancelled or timed out.';
  if (error instanceof Error && error.name === 'InvalidStateError') return 'This passkey is already registered.';
  return error instanceof Error ? error.message : 'The passkey did not work.';
}
