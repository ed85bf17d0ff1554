'use client';

import { AlertDialog as A } from 'radix-ui';
import { useRef, useState, type ReactNode } from 'react';
import { Button } from './button';
import { dialogBody, dialogFrame, dialogOverlay, DialogFooter } from './dialog';
import { pageHeading, useFocusReturn } from './focus-return';

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => Promise<boolean> | boolean;
  tone?: 'danger' | 'primary';
  removesOpener?: boolean;
  returnFocus?: () => HTMLElement | null | undefined;
};

/**
 * Radix's alert dialog behind `ConfirmDialog` (./confirm-dialog.tsx), which loads this module when a confirmation
 * first opens. A yes/no confirmation; focus starts on Cancel. `onConfirm` does the work and resolves true when the dialog
 * may close (false keeps it open; the work announces its own failure). Focus then returns to the opener, or
 * to the page heading when `removesOpener` says the confirmed action takes the opener's row away.
 */
export function RadixConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  tone = 'danger',
  removesOpener = false,
  returnFocus,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const confirmed = useRef(false);
  const onCloseAutoFocus = useFocusReturn(open, () =>
    confirmed.current && removesOpener ? pageHeading() : returnFocus?.(),
  );
  const confirm = async () => {
    setPending(true);
    try {
      confirmed.current = await onConfirm();
    } finally {
      setPending(false);
    }
    if (confirmed.current) onOpenChange(false);
  };
  return (
    <A.Root
      open={open}
      onOpenChange={(next) => {
        if (next) confirmed.current = false;
        onOpenChange(next);
      }}
    >
      <A.Portal>
        <A.Overlay className={dialogOverlay} />
        <A.Content
          data-dialog-frame=""
          className={`${dialogFrame} w-[min(28rem,calc(100vw-2rem))]`}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus(event);
            confirmed.current = false;
          }}
        >
          <div data-dialog-body="" className={dialogBody}>
            <A.Title className="text-lg font-semibold text-slate-900">{title}</A.Title>
            <A.Description asChild>
              <div className="mt-2 space-y-2 text-sm text-slate-600">{description}</div>
            </A.Description>
          </div>
          <DialogFooter>
            <A.Cancel asChild>
              <Button variant="secondary">{cancelLabel}</Button>
            </A.Cancel>
            <Button
              variant={tone}
              pending={pending}
              onClick={(event) => {
                // Keep the dialog open until the action settles.
                event.preventDefault();
                void confirm();
              }}
            >
              {confirmLabel}
            </Button>
          </DialogFooter>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}
