import Link from 'next/link';
import type { ReactNode } from 'react';

/**
 * The bar over a page outside the console's shell (your security, the API reference): the way back to the console,
 * and on its right whatever the page adds. `narrow` keeps it to the width of a narrow page's column.
 */
export function BackToConsoleBar({ narrow = false, children }: { narrow?: boolean; children?: ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div
        className={`${narrow ? 'mx-auto max-w-3xl ' : ''}flex flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6`}
      >
        <Link href="/orgs" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
          <span aria-hidden="true">← </span>Back to the console
        </Link>
        {children}
      </div>
    </header>
  );
}
