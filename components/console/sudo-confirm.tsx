'use client';

import { useRef, useState, type FormEvent } from 'react';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { apiFetch, ApiRequestError } from '@/lib/api-client';
import { passkeyAssertion, passkeyFailure, useSecurity } from '@/lib/second-factor/queries';

type Method = 'password' | 'code';

/** The sudo dialog itself: loaded by AuthPrompts (sudo-dialog.tsx) the first time a change needs it. */
export function SudoDialog({ open, onDone }: { open: boolean; onDone: (confirmed: boolean) => void }) {
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
        <TextField
          id={id}
          label={method === 'password' ? 'Password' : 'Authenticator or recovery code'}
          error={error}
          ref={input}
          autoFocus
          type={method === 'password' ? 'password' : 'text'}
          autoComplete={method === 'password' ? 'current-password' : 'one-time-code'}
          inputMode={method === 'code' ? 'text' : undefined}
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
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
        <FormFooter
          onCancel={() => {
            reset();
            onDone(false);
          }}
          pending={pending}
          submitLabel="Confirm"
        />
      </form>
    </Dialog>
  );
}
