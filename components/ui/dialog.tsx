'use client';

import { Dialog as D } from 'radix-ui';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Button } from './button';
import { useFocusReturn } from './focus-return';

/*
 * Every console dialog: a frame at most the window's height (`dialogFrame`) holding a body that scrolls
 * (`dialogBody`) and, pinned to the frame's bottom edge, the actions (`DialogFooter`).
 *
 * The footer is positioned against the frame, not stuck inside the scrolling body: a sticky footer cannot leave
 * its parent, and a footer's parent is usually the dialog's <form>. When other content (a subscription's details)
 * comes before the form, the form starts near the window's bottom and a sticky footer could rise no higher than
 * the form's top edge plus its own margin: at 320×640 the subscription editor's Save sat at y 630 of 640. So the
 * footer is `absolute` against the frame (the nearest positioned box: nothing between them may be positioned),
 * wherever it sits in the tree (inside a form, its buttons still submit it), and it publishes its height as
 * `--dialog-footer-height`; the body keeps that much room at its end and as scroll padding, so the last field and
 * a focused field are never hidden under it.
 */
export const dialogFrame =
  'fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-lg bg-white shadow-xl focus:outline-none';
export const dialogBody =
  'min-h-0 overflow-y-auto px-6 pt-6 pb-[calc(var(--dialog-footer-height,0px)+1.5rem)] scroll-pb-[calc(var(--dialog-footer-height,0px)+0.5rem)]';
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
          data-dialog-frame=""
          onEscapeKeyDown={onEscapeKeyDown}
          onInteractOutside={onInteractOutside}
          onCloseAutoFocus={onCloseAutoFocus}
          className={`${frame} ${width}`}
        >
          <div data-dialog-body="" className={dialogBody}>
            <D.Title className="text-lg font-semibold text-slate-900 [overflow-wrap:anywhere]">{title}</D.Title>
            {description ? (
              <D.Description className="mt-1 text-sm text-slate-600 [overflow-wrap:anywhere]">
                {description}
              </D.Description>
            ) : (
              <D.Description className="sr-only">{title}</D.Description>
            )}
            <div className="mt-4">{children}</div>
          </div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

/**
 * A dialog's actions: pinned to the bottom of the dialog's frame while its body scrolls, so Save is never below
 * the window's edge, however tall the form above it. Put it anywhere inside the dialog (in its <form>, last).
 */
export function DialogFooter({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  // Before paint, and again whenever it wraps or its content changes (the discard question replaces the buttons).
  useLayoutEffect(() => {
    const footer = ref.current;
    const frame = footer?.closest<HTMLElement>('[data-dialog-frame]');
    if (!footer || !frame) return;
    const publish = () => frame.style.setProperty('--dialog-footer-height', `${footer.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(footer);
    return () => {
      observer.disconnect();
      frame.style.removeProperty('--dialog-footer-height');
    };
  }, []);
  return (
    <div
      ref={ref}
      data-dialog-footer=""
      className="absolute inset-x-0 bottom-0 z-10 flex flex-wrap justify-end gap-3 rounded-b-lg border-t border-slate-200 bg-white px-6 py-4"
    >
      {children}
    </div>
  );
}

/**
 * A form dialog's footer: Cancel and the form's submit button, which shows `pending` while the submit runs.
 * `prompt` (the discard question of components/console/discard-guard) takes the buttons' place while it asks.
 */
export function FormFooter({
  onCancel,
  pending,
  submitLabel,
  prompt,
}: {
  onCancel: () => void;
  pending: boolean;
  submitLabel: ReactNode;
  prompt?: ReactNode;
}) {
  return (
    <DialogFooter>
      {prompt ?? (
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" pending={pending}>
            {submitLabel}
          </Button>
        </>
      )}
    </DialogFooter>
  );
}

export const DialogClose = D.Close;
