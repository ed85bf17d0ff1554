'use client';

import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { FormAlert } from './form-alert';

/** Where a refused code's message goes: at the field (a wrong code), or above the form (anything else). */
export type StepProblem = { field: string } | { form: string } | null;

/**
 * The sign-in's second step, after a right password: a code from the authenticator app or a recovery code, or
 * a passkey instead. Whether the person has a passkey is not told to the page, so it is offered where the browser
 * supports passkeys; one that is not theirs simply does not sign them in.
 */
export function SecondStep({
  passkeys,
  onCode,
  onPasskey,
  onBack,
}: {
  passkeys: boolean;
  onCode: (code: string) => Promise<StepProblem>;
  onPasskey: () => Promise<string | null>;
  onBack: () => void;
}) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState<'code' | 'passkey' | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!code.trim()) {
      setFieldError('Enter the code from your authenticator app, or a recovery code.');
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setPending('code');
    const problem = await onCode(code.trim());
    setPending(null);
    if (problem && 'field' in problem) {
      setFieldError(problem.field);
      input.current?.select();
    } else if (problem) setFormError(problem.form);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-2" aria-labelledby="second-step-title">
      <h2 id="second-step-title" className="text-base font-semibold text-slate-900">
        Second step
      </h2>
      <p className="pb-2 text-sm text-slate-600">
        Your account has a second factor. Enter the 6-digit code your authenticator app shows, or one of your recovery
        codes.
      </p>
      <FormAlert message={formError} />
      <TextField
        id="second-factor-code"
        label="Authentication code"
        error={fieldError}
        ref={input}
        autoFocus
        autoComplete="one-time-code"
        spellCheck={false}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" className="w-full" pending={pending === 'code'} disabled={pending === 'passkey'}>
        Verify
      </Button>
      {passkeys && (
        <Button
          variant="secondary"
          className="mt-3 w-full"
          pending={pending === 'passkey'}
          disabled={pending === 'code'}
          onClick={async () => {
            setFormError(null);
            setPending('passkey');
            const problem = await onPasskey();
            setPending(null);
            setFormError(problem);
          }}
        >
          Use a passkey
        </Button>
      )}
      <Button variant="ghost" className="mt-1 w-full" onClick={onBack}>
        Start over
      </Button>
    </form>
  );
}
