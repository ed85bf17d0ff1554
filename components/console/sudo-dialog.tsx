'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { describedBy, Field, Input } from '@/components/ui/field';
import { apiFetch, ApiRequestError, registerAuthPrompts } from '@/lib/api-client';
import { passkeyAssertion, passkeyFailure, useSecurity } from '@/lib/second-factor/queries';

type Method = 'password' | 'code';

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

function SudoDialog({ open, onDone }: { open: boolean; onDone: (confirmed: boolean) => void }) {
  const [method, setMethod] = useState<Method>('password');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Which factors to offer; without an answer the password alone is offered.
  const security = useSecurity(open);
  const hasTotp = !!security.data?.totp.enabled || (security.data?.recoveryCodesRemaining ?? 0) > 0;
  const hasPasskey = (security.data?.passkeys.length ?? 0) > 0;

  const reset = (next: Method = 'password') => {
    setMethod(next);
    setValue('');
    setError(null);
    setPending(false);
  };

  const prove = async (proof: Record<string, unknown>) => {
    setPending(true);
    setError(null);
    try {
      await apiFetch('/v1/me/sudo', { method: 'POST', body: proof });
      reset();
      onDone(true);
    } catch (err) {
      setPending(false);
      const issues = err instanceof ApiRequestError ? err.issues.map((i) => i.message).join(' ') : '';
      setError(issues || (err instanceof Error ? err.message : 'That did not check out.'));
      input.current?.focus();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) {
      setError(method === 'password' ? 'Enter your password.' : 'Enter a code.');
      input.current?.focus();
      return;
    }
    void prove(method === 'password' ? { password: value } : { code: value.trim() });
  };

  const confirmWithPasskey = async () => {
    setError(null);
    let passkey;
    try {
      passkey = await passkeyAssertion();
    } catch (err) {
      setError(passkeyFailure(err));
      return;
    }
    await prove({ passkey });
  };

  const id = method === 'password' ? 'sudo-password' : 'sudo-code';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        reset();
        onDone(false);
      }}
      stacked
      title="Confirm it is you"
      description="This change needs a recent sign-in. Confirm, and it carries on with what you entered."
    >
      <form onSubmit={submit} noValidate className="space-y-2">
        <Field
          id={id}
          label={method === 'password' ? 'Password' : 'Authenticator or recovery code'}
          error={error ?? undefined}
        >
          <Input
            ref={input}
            autoFocus
            type={method === 'password' ? 'password' : 'text'}
            autoComplete={method === 'password' ? 'current-password' : 'one-time-code'}
            inputMode={method === 'code' ? 'text' : undefined}
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            invalid={!!error}
            {...describedBy(id, { error })}
          />
        </Field>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {hasTotp && (
            <button
              type="button"
              className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
              onClick={() => {
                reset(method === 'password' ? 'code' : 'password');
                input.current?.focus();
              }}
            >
              {method === 'password' ? 'Use an authenticator or recovery code' : 'Use your password'}
            </button>
          )}
          {hasPasskey && (
            <button
              type="button"
              className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
              onClick={() => void confirmWithPasskey()}
            >
              Use a passkey
            </button>
          )}
        </div>
        <DialogFooter>
          <Button
            variant="secondary"
            onClick={() => {
              reset();
              onDone(false);
            }}
          >
            Cancel
          </Button>
          <Button type="submit" pending={pending}>
            Confirm
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
