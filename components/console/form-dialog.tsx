'use client';

import type { FormEventHandler, ReactNode } from 'react';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { useDiscardGuard } from './discard-guard';

/** How a form dialog closes: every way out goes through `requestClose`; `prompt`, while set, asks first. */
export type Closing = { requestClose: () => void; prompt?: ReactNode };

/**
 * A form dialog's state: `close` puts the form back to its defaults (or its latest `values`), runs `onClose` (the
 * dialog's other state) and closes; every other way out asks first while the form has unsaved changes
 * (components/console/discard-guard). `props` go to `FormDialog`.
 */
export function useFormDialog(
  form: { reset: () => void; formState: { isDirty: boolean } },
  dialog: { open: boolean; onOpenChange: (open: boolean) => void; onClose?: () => void },
) {
  const close = () => {
    form.reset();
    dialog.onClose?.();
    dialog.onOpenChange(false);
  };
  const closing: Closing = useDiscardGuard(form.formState.isDirty, close);
  return { close, props: { open: dialog.open, onOpenChange: dialog.onOpenChange, closing } };
}

/**
 * A dialog that is one form: Escape, the overlay and Cancel all go through `closing`, whose discard question takes
 * the footer's place while it asks.
 */
export function FormDialog({
  open,
  onOpenChange,
  closing,
  title,
  description,
  onSubmit,
  pending,
  submitLabel,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  closing: Closing;
  title: ReactNode;
  description?: ReactNode;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  submitLabel: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : closing.requestClose())}
      title={title}
      description={description}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-2">
        {children}
        {closing.prompt ?? <FormFooter onCancel={closing.requestClose} pending={pending} submitLabel={submitLabel} />}
      </form>
    </Dialog>
  );
}
