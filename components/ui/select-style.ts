/** The select trigger's look: the placeholder button (./select.tsx) and Radix's trigger (./select-radix.tsx) share it. */
export const triggerClass =
  'flex w-full items-center justify-between gap-2 rounded-md bg-white px-3 py-2 text-left text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 data-[placeholder]:text-slate-500 disabled:bg-slate-100';
