'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { registerAuthPrompts } from '@/lib/api-client';
import { whenOpened } from '@/components/ui/opened-once';

// The dialog's form, its factors' queries and the passkey helpers load the first time a change needs them, not with
// every console page (AuthPrompts is on all of them).
const SudoDialog = whenOpened(
  () => import('./sudo-confirm'),
  (m) => m.SudoDialog,
  (props) => props.open,
);

/** Where a member refused by their organization's second-factor policy goes to enrol. */
export const SECURITY_PATH = '/account/security';

/**
 * The console's answer to 403 `reauthentication_required` and `two_factor_required`, registered once for every
 * request (lib/api-client.ts): a dialog asks for the password, a code or a passkey, then the refused request is
 * sent again by apiFetch, so the form that sent it keeps what was typed. Cancelling lets the refusal through.
 */
export function AuthPrompts() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(
    () =>
      registerAuthPrompts({
        reauthenticate: () =>
          new Promise<boolean>((resolve) => {
            settle.current = resolve;
            setOpen(true);
          }),
        twoFactorRequired: (error) => {
          // A page's several requests are refused together: one toast (by id), one navigation.
          toast.error('Your organization requires a second factor', {
            id: 'two-factor-required',
            description: error.message,
          });
          if (window.location.pathname !== SECURITY_PATH) router.push(`${SECURITY_PATH}?required=1`);
        },
      }),
    [router],
  );

  const finish = (confirmed: boolean) => {
    setOpen(false);
    settle.current?.(confirmed);
    settle.current = null;
  };

  return <SudoDialog open={open} onDone={finish} />;
}
