/** The phone menu's button: the plain one the shell renders first and Radix's trigger that replaces it look alike. */
export const menuButtonClass =
  'inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100';

/** A button that reads as a link in the frame's side panel (New organization, New project). */
export const linkButtonClass = 'text-sm font-semibold text-indigo-700 hover:text-indigo-600';
