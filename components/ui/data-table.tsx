import type { ReactNode } from 'react';

/**
 * The console's list table: a labelled (screen-reader caption) table in a scrolling card, a header row
 * from `columns` (null is an actions column, named for screen readers only), rows as children.
 */
export function DataTable({
  caption,
  columns,
  children,
  footer,
}: {
  caption: string;
  columns: (string | null)[];
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column, i) => (
              <th key={column ?? `actions-${i}`} scope="col" className="px-4 py-3">
                {column ?? <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
      {footer}
    </div>
  );
}
