'use client';

import { usePathname } from 'next/navigation';
import { Dialog as D } from 'radix-ui';
import { useState, type ReactNode } from 'react';
import { menuButtonClass } from './menu-button';

/**
 * Radix's dialog behind the shell's phone menu (`MobileMenu` in ./shell.tsx loads it when the menu is first
 * pointed at, focused or opened): the navigation as a panel from the left. `defaultOpen` when it replaces the
 * plain button that was pressed.
 */
export function RadixMobileMenu({ children, defaultOpen }: { children: ReactNode; defaultOpen: boolean }) {
  const pathname = usePathname();
  // Open for the page it was opened on, so following a link closes it (focus returns to its trigger).
  const [openOn, setOpenOn] = useState<string | null>(defaultOpen ? pathname : null);
  return (
    <D.Root open={openOn === pathname} onOpenChange={(open) => setOpenOn(open ? pathname : null)}>
      <D.Trigger className={menuButtonClass}>
        <span aria-hidden="true">☰</span> Menu
      </D.Trigger>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <D.Content className="fixed inset-y-0 left-0 z-50 flex w-[min(18rem,calc(100vw-3rem))] flex-col overflow-y-auto bg-white shadow-xl focus:outline-none">
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <D.Title className="text-sm font-semibold text-slate-900">Menu</D.Title>
            <D.Description className="sr-only">Organization, project and pages of the console.</D.Description>
            <D.Close className="rounded-md px-2 py-1 text-sm font-semibold text-slate-700 hover:bg-slate-100">
              Close
            </D.Close>
          </div>
          {children}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
