'use client';

import { useState } from 'react';

/**
 * True from the first time `open` is true on. A dialog loaded with `next/dynamic` is rendered behind it, so its
 * code (a form, zod, a chart) loads when it first opens rather than with the page, and it then stays mounted, so
 * closing it works as it always did (Radix returns focus, the parent keeps its state).
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
