'use client';

import { useState, type ComponentType } from 'react';
import type { onDemand } from '@/components/ui/on-demand';

/** What a dialog loaded on demand takes from its button: whether it is open, and how it closes. */
export type OpenProps = { open: boolean; onOpenChange: (open: boolean) => void };

/**
 * A button that opens a dialog whose module (its form, react-hook-form, zod, Radix's dialog) is loaded only when
 * someone comes near: pointing at the button or focusing it starts the load, pressing it opens the dialog as soon
 * as it is there. Every console page shows such buttons in its frame (New organization, New project) and few
 * visits press them, so the frame's script stays without them. Focus returns to the button when the dialog closes,
 * as it would from a dialog rendered from the start.
 */
export function DialogOnDemand<P extends OpenProps>({
  dialog,
  label,
  className,
  props,
}: {
  dialog: ReturnType<typeof onDemand<ComponentType<P>>>;
  label: string;
  className: string;
  props: Omit<P, keyof OpenProps>;
}) {
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(dialog.current);
  const [open, setOpen] = useState(false);
  const load = () => dialog.load().then((impl) => setLoaded(() => impl));
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        className={className}
        onPointerEnter={() => void load()}
        onFocus={() => void load()}
        onClick={() => void load().then(() => setOpen(true))}
      >
        {label}
      </button>
      {Loaded && <Loaded {...(props as P)} open={open} onOpenChange={setOpen} />}
    </>
  );
}
