'use client';

import { useLayoutEffect, useRef } from 'react';

/** Where focus goes when a dialog's opener is gone: the page's heading (it takes focus, `tabIndex={-1}`). */
export function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1');
}

/**
 * Returns focus to whatever had it when the dialog opened (Radix only does this for its own Trigger, and
 * the console opens dialogs from state). Order: `returnFocus()` when it names an element, else the opener
 * while it is still in the page, else the page heading. Pass the result as `onCloseAutoFocus`.
 */
export function useFocusReturn(open: boolean, returnFocus?: () => HTMLElement | null | undefined) {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before Radix moves focus into the dialog (its focus scope uses a passive effect).
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body) opener.current = active;
  }, [open]);
  return (event: Event) => {
    event.preventDefault();
    const stillThere = opener.current?.isConnected ? opener.current : null;
    (returnFocus?.() ?? stillThere ?? pageHeading())?.focus();
  };
}
