'use client';

import { useState, type ComponentType } from 'react';

/**
 * True from the first time `open` is true on. A dialog loaded with `next/dynamic` is rendered behind it, so its
 * code (a form, zod, a chart) loads when it first opens rather than with the page, and it then stays mounted, so
 * closing it works as it always did (Radix returns focus, the parent keeps its state).
 */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * `Dialog` (a `next/dynamic` component) rendered only from the first time `isOpen(props)` is true: a dialog that
 * every page may show but few visits open loads its code (Radix's dialog with it) when it is first needed.
 */
export function whenOpened<P extends object>(Dialog: ComponentType<P>, isOpen: (props: P) => boolean) {
  return function OpenedOnce(props: P) {
    const opened = useOpenedOnce(isOpen(props));
    return opened ? <Dialog {...props} /> : null;
  };
}
