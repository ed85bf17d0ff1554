'use client';

import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';

/**
 * The dialog behind `SecretRevealDialog` (./secret-reveal-dialog.tsx), which loads it when a secret first arrives.
 * Shows a secret exactly once. It lives only in the parent's state: closing calls `onClose`, which drops it.
 * Closing before copying asks first, since the secret can never be shown again.
 */
export function SecretReveal({
  title,
  label,
  secret,
  onClose,
  returnFocus,
  description = 'Copy it now: it will never be shown again.',
  advice = 'This is the only time it is shown. Store it somewhere safe, such as a secrets manager.',
  children,
}: {
  title: string;
  label: string;
  secret: string | null;
  onClose: () => void;
  /** Under the title: what this secret is and that it is shown once. */
  description?: string;
  /** The amber note under the secret: what to do with it. A key goes to a secrets manager; a link to a person. */
  advice?: string;
  /** It opens from another dialog, so the caller names where focus goes back to. */
  returnFocus: () => HTMLElement | null | undefined;
  /** Under the advice: what to do with the secret next (a new key's first call). */
  children?: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const [copyError, setCopyError] = useState<string | null>(null);
  const [confirmingClose, setConfirmingClose] = useState(false);

  const close = () => {
    setCopied(false);
    setCopyError(null);
    setConfirmingClose(false);
    onClose();
  };
  const requestClose = () => (copied ? close() : setConfirmingClose(true));
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setCopyError(null);
    } catch {
      setCopyError('Could not copy. Select the key and copy it by hand.');
    }
  };

  return (
    <Dialog
      open={secret !== null}
      onOpenChange={(open) => {
        if (!open) requestClose();
      }}
      title={title}
      description={description}
      returnFocus={returnFocus}
    >
      {confirmingClose ? (
        <div role="alertdialog" aria-labelledby="secret-close-title" className="space-y-4">
          <p id="secret-close-title" className="text-sm font-semibold text-slate-900">
            You have not copied it. Close anyway?
          </p>
          <p className="text-sm text-slate-600">
            Once closed, nobody can see it again, not even an administrator. You would have to create a new one.
          </p>
          <DialogFooter>
            <Button variant="secondary" onClick={() => setConfirmingClose(false)} autoFocus>
              Go back
            </Button>
            <Button variant="danger" onClick={close}>
              Close without copying
            </Button>
          </DialogFooter>
        </div>
      ) : (
        <div className="space-y-4">
          <label htmlFor="revealed-secret" className="block text-sm font-medium text-slate-800">
            {label}
          </label>
          <div className="flex gap-2">
            <input
              id="revealed-secret"
              readOnly
              value={secret ?? ''}
              onFocus={(e) => e.currentTarget.select()}
              autoComplete="off"
              spellCheck={false}
              data-1p-ignore
              className="block w-full rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-inset ring-slate-300"
            />
            <Button
              variant={copied ? 'secondary' : 'primary'}
              onClick={() => void copy()}
              aria-describedby="copy-status"
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p id="copy-status" role="status" className="min-h-5 text-sm">
            {copied ? (
              <span className="text-green-700">Copied to the clipboard.</span>
            ) : copyError ? (
              <span className="text-red-700">{copyError}</span>
            ) : (
              ''
            )}
          </p>
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{advice}</p>
          {children}
          <DialogFooter>
            <Button variant={copied ? 'primary' : 'secondary'} onClick={requestClose}>
              Done
            </Button>
          </DialogFooter>
        </div>
      )}
    </Dialog>
  );
}
