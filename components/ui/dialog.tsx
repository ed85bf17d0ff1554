'use client';

import { Dialog as D } from 'radix-ui';
import type { ReactNode } from 'react';
import { useFocusReturn } from './focus-return';

/** The frame every console dialog shares: at most the window's height, the body scrolls, the footer stays. */
export const dialogFrame =
  'fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-lg bg-white px-6 pt-6 shadow-xl focus:outline-none';
export const dialogOverlay = 'fixed inset-0 z-40 bg-black/50';

/**
 * An accessible modal (focus trap, Escape, labelled title) from Radix, styled for the console. Focus returns
 * to the opener when it closes (see `useFocusReturn`); `returnFocus` names another element when the opener
 * is not the right place (a dialog opened by another dialog).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  onEscapeKeyDown,
  onInteractOutside,
  returnFocus,
  stacked = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
  onInteractOutside?: (event: Event) => void;
  returnFocus?: () => HTMLElement | null | undefined;
  /** Opens over another dialog (the sudo dialog over the form it interrupts): its overlay dims that dialog too. */
  stacked?: boolean;
}) {
  const onCloseAutoFocus = useFocusReturn(open, returnFocus);
  const overlay = stacked ? dialogOverlay.replace('z-40', 'z-[60]') : dialogOverlay;
  const frame = stacked ? dialogFrame.replace('z-50', 'z-[70]') : dialogFrame;
  const width = stacked ? 'w-[min(28rem,calc(100vw-2rem))]' : 'w-[min(36rem,calc(100vw-2rem))]';
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className={overlay} />
        <D.Content
          onEscapeKeyDown={onEscapeKeyDown}
          onInteractOutside={onInteractOutside}
          onCloseAutoFocus={onCloseAutoFocus}
          className={`${frame} ${width}`}
        >
          <D.Title className="text-lg font-semibold text-slate-900">{title}</D.Title>
          {description ? (
            <D.Description className="mt-1 text-sm text-slate-600">{description}</D.Description>
          ) : (
            <D.Description className="sr-only">{title}</D.Description>
          )}
          <div className="mt-4 pb-6 has-[[data-dialog-footer]]:pb-0">{children}</div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

/** A dialog's actions: stuck to the bottom of the dialog while its body scrolls, so Save is never below the fold. */
export function DialogFooter({ children }: { children: ReactNode }) {
  return (
    <div
      data-dialog-footer=""
      className="sticky bottom-0 -mx-6 mt-6 flex flex-wrap justify-end gap-3 border-t border-slate-200 bg-white px-6 py-4"
    >
      {children}
    </div>
  );
}

export const DialogClose = D.Close;
