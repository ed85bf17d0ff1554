'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';

/** Recovery codes, shown exactly once: they live only in the parent's state until this closes. */
export function RecoveryCodesDialog({
  codes,
  onClose,
  returnFocus,
}: {
  codes: string[] | null;
  onClose: () => void;
  returnFocus?: () => HTMLElement | null | undefined;
}) {
  const [status, setStatus] = useState<string | null>(null);
  const text = (codes ?? []).join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('Copied the codes to the clipboard.');
    } catch {
      setStatus('Could not copy. Select the codes and copy them by hand, or download them.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'svc-console-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
    setStatus('Downloaded svc-console-recovery-codes.txt.');
  };
  return (
    <Dialog
      open={codes !== null}
      onOpenChange={(open) => {
        if (open) return;
        setStatus(null);
        onClose();
      }}
      title="Save your recovery codes"
      description="Each code signs you in once when your authenticator or passkey is not at hand. They are shown only now."
      returnFocus={returnFocus}
    >
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-md bg-slate-50 px-4 py-3 font-mono text-sm text-slate-900 ring-1 ring-inset ring-slate-200 sm:grid-cols-2"
      >
        {(codes ?? []).map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="secondary" onClick={download}>
          Download .txt
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-green-700">
        {status ?? ''}
      </p>
      <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        Keep them somewhere safe, apart from your password. Generating new codes stops these from working.
      </p>
      <DialogFooter>
        <Button
          onClick={() => {
            setStatus(null);
            onClose();
          }}
        >
          I have saved them
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
