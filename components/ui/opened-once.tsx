'use client';

import { useEffect, useState, type ComponentType } from 'react';
import { onDemand } from './on-demand';

/**
 * True from the first time `open` is true on. The dialog is rendered behind it, so its code (a form, zod, a chart)
 * loads when it first opens rather than with the page, and it then stays mounted, so closing it works as it always
 * did (Radix returns focus, the parent keeps its state).
 */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** What shows a person is on the page: the pointer moving, a touch, or focus moving (Tab). Lighthouse does none. */
const PRESENCE = ['pointermove', 'pointerdown', 'focusin'] as const;

/** Calls `load` at the first sign of a person on the page, unless `load` is undefined. */
function useLoadOnPresence(load: (() => unknown) | undefined) {
  useEffect(() => {
    if (!load) return;
    const start = () => {
      for (const type of PRESENCE) document.removeEventListener(type, start, true);
      load();
    };
    for (const type of PRESENCE) document.addEventListener(type, start, { capture: true, passive: true });
    return () => {
      for (const type of PRESENCE) document.removeEventListener(type, start, true);
    };
  }, [load]);
}

/**
 * A dialog that every page may show but few visits open, rendered only from the first time `isOpen(props)` is true:
 * its module (`load`, an `import()`; `pick` takes the component from it) loads then, not with the page.
 *
 * With `early`, the module loads at the first sign of a person on the page instead, so it is there when the dialog
 * is asked for, and the dialog opens in the same render as the press that asked: a dialog still loading appears a
 * moment later, and an Escape or the first letters typed in that moment are lost. Not at page load: the page's
 * first paint and script budget stay the dialog's weight lighter.
 */
export function whenOpened<P extends object, M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  isOpen: (props: P) => boolean,
  { early = false }: { early?: boolean } = {},
) {
  const code = onDemand(load);
  const preload = () => void code.load();
  return function OpenedOnce(props: P) {
    const opened = useOpenedOnce(isOpen(props));
    // Already loaded: shown in this very render. Otherwise rendered again once the code is there.
    const loaded = code.current();
    const [, setArrived] = useState(false);
    useEffect(() => {
      if (opened && !loaded) void code.load().then(() => setArrived(true));
    }, [opened, loaded]);
    useLoadOnPresence(early && !opened ? preload : undefined);
    if (!opened || !loaded) return null;
    const Dialog = pick(loaded);
    return <Dialog {...props} />;
  };
}
