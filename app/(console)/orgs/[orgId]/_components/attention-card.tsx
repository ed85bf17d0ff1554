import Link from 'next/link';
import type { ReactNode } from 'react';

/** One panel of the overview: a title linking to the page that deals with it, and what needs attention. */
export function AttentionCard({ title, href, children }: { title: string; href: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label={title}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        <Link href={href} className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
          Open <span className="sr-only">{title}</span>
          <span aria-hidden="true"> →</span>
        </Link>
      </div>
      <div className="mt-3 text-sm text-slate-700">{children}</div>
    </section>
  );
}
