'use client';

import QRCode from 'qrcode';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { runMutation } from '@/components/console/feedback';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { Badge } from '@/components/ui/states';
import { ApiRequestError } from '@/lib/api-client';
import { useSecurityActions, type TotpEnrolment } from '@/lib/second-factor/queries';
import type { Security } from '@/lib/second-factor/schema';
import { RecoveryCodesDialog } from './recovery-codes-dialog';

/** The authenticator app (TOTP): set up with a QR code or the secret in text, confirm, turn off; recovery codes. */
export function TotpSection({ security }: { security: Security }) {
  const actions = useSecurityActions();
  const hasFactor = security.totp.enabled || security.passkeys.length > 0;
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);
  const [confirmOff, setConfirmOff] = useState(false);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const regenerateButton = useRef<HTMLButtonElement>(null);
  // The set-up button goes once TOTP is on (a refetch later): focus then goes to this section's heading.
  const setUpButton = useRef<HTMLButtonElement>(null);
  const enabled = useRef(false);
  const afterEnrolment = () => (enabled.current ? heading.current : setUpButton.current);

  const start = async () => {
    enabled.current = false;
    setStarting(true);
    const outcome = await runMutation(actions.startTotp, {
      success: 'Scan the QR code, then enter a code to finish.',
      failure: 'Could not start setting up the authenticator app',
    });
    setStarting(false);
    if (outcome.ok) setEnrolment(outcome.data);
  };

  return (
    <section aria-labelledby="totp-heading" className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="totp-heading" ref={heading} tabIndex={-1} className="text-base font-semibold focus:outline-none">
          Authenticator app
        </h2>
        {security.totp.enabled ? <Badge tone="green">On</Badge> : <Badge>Off</Badge>}
      </div>
      <p className="mt-1 text-sm text-slate-600">
        A 6-digit code from an app such as 1Password, Google Authenticator or Authy, asked for after your password.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {security.totp.enabled ? (
          <Button variant="secondary" onClick={() => setConfirmOff(true)}>
            Turn off the authenticator app
          </Button>
        ) : (
          <Button ref={setUpButton} pending={starting} onClick={() => void start()}>
            Set up an authenticator app
          </Button>
        )}
      </div>
      <div className="mt-6 border-t border-slate-200 pt-4">
        <h3 className="text-sm font-semibold text-slate-900">Recovery codes</h3>
        <p className="mt-1 text-sm text-slate-600">
          {hasFactor
            ? `${security.recoveryCodesRemaining} of 10 unused. Each signs you in once when your factors are not at hand.`
            : 'You get ten with your first second factor.'}
        </p>
        {/* Offered while any factor is on, so someone who used every code can get new ones. */}
        {hasFactor && (
          <Button
            ref={regenerateButton}
            variant="secondary"
            className="mt-3"
            onClick={() => setConfirmRegenerate(true)}
          >
            Generate new recovery codes
          </Button>
        )}
      </div>

      <EnrolTotpDialog
        enrolment={enrolment}
        onClose={() => setEnrolment(null)}
        onEnabled={(recoveryCodes) => {
          enabled.current = true;
          setEnrolment(null);
          if (recoveryCodes.length > 0) setCodes(recoveryCodes);
        }}
        returnFocus={afterEnrolment}
      />
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} returnFocus={afterEnrolment} />
      <ConfirmDialog
        open={confirmOff}
        onOpenChange={setConfirmOff}
        title="Turn off the authenticator app?"
        description={
          <p>Sign-in will no longer ask for its codes. Without a passkey, your recovery codes stop working too.</p>
        }
        confirmLabel="Turn off"
        removesOpener
        returnFocus={() => heading.current}
        onConfirm={async () =>
          (
            await runMutation(actions.disableTotp, {
              success: 'Turned off the authenticator app.',
              failure: 'Could not turn off the authenticator app',
            })
          ).ok
        }
      />
      <ConfirmDialog
        open={confirmRegenerate}
        onOpenChange={setConfirmRegenerate}
        title="Generate new recovery codes?"
        description={<p>Your current recovery codes stop working at once.</p>}
        confirmLabel="Generate new codes"
        tone="primary"
        returnFocus={() => regenerateButton.current}
        onConfirm={async () => {
          const outcome = await runMutation(actions.regenerateRecoveryCodes, {
            success: 'Generated ten new recovery codes; the old ones no longer work.',
            failure: 'Could not generate new recovery codes',
          });
          if (outcome.ok) setCodes(outcome.data.recoveryCodes);
          return outcome.ok;
        }}
      />
    </section>
  );
}

function EnrolTotpDialog({
  enrolment,
  onClose,
  onEnabled,
  returnFocus,
}: {
  enrolment: TotpEnrolment | null;
  onClose: () => void;
  onEnabled: (recoveryCodes: string[]) => void;
  returnFocus: () => HTMLElement | null | undefined;
}) {
  const actions = useSecurityActions();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!enrolment) return;
    let live = true;
    // An SVG drawn in the browser: the secret never leaves it for a QR service.
    void QRCode.toString(enrolment.otpauthUri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (live) setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [enrolment]);

  const close = () => {
    setQr(null);
    setCode('');
    setError(null);
    onClose();
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setError('Enter the 6-digit code your authenticator app shows.');
      return;
    }
    setPending(true);
    const outcome = await runMutation(() => actions.confirmTotp(code.trim()), {
      success: 'The authenticator app is on: sign-in now asks for its code.',
      failure: 'Could not turn on the authenticator app',
      placeIssues: (err) => {
        const issue = err instanceof ApiRequestError ? err.issues.find((i) => i.path === 'code') : undefined;
        if (issue) setError(issue.message);
        return !issue;
      },
    });
    setPending(false);
    if (!outcome.ok) return;
    setQr(null);
    setCode('');
    setError(null);
    onEnabled(outcome.data.recoveryCodes);
  };

  return (
    <Dialog
      open={enrolment !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title="Set up an authenticator app"
      description="Scan the QR code with your app, or type the key into it; then enter the code it shows."
      returnFocus={returnFocus}
    >
      <form onSubmit={(e) => void confirm(e)} noValidate className="space-y-4">
        <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
          {qr ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL drawn here, nothing to optimise
            <img src={qr} alt="QR code of the authenticator key" width={176} height={176} className="shrink-0" />
          ) : (
            <div className="size-44 shrink-0 animate-pulse rounded bg-slate-100" aria-hidden="true" />
          )}
          <div className="min-w-0 space-y-1">
            <p className="text-sm font-medium text-slate-800" id="totp-secret-label">
              Key, to type in instead
            </p>
            <code
              aria-labelledby="totp-secret-label"
              data-testid="totp-secret"
              className="block rounded-md bg-slate-50 px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-inset ring-slate-200 select-all"
            >
              {enrolment?.secret}
            </code>
            <p className="text-xs text-slate-500">Time-based, 6 digits, every 30 seconds.</p>
          </div>
        </div>
        <TextField
          id="totp-code"
          label="Code from the app"
          error={error}
          autoFocus
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <FormFooter onCancel={close} pending={pending} submitLabel="Turn on" />
      </form>
    </Dialog>
  );
}
