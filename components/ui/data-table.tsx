import type { ReactNode } from 'react';
import { Button, type ButtonProps } from './button';

/**
 * The console's list table. At any width the page itself never scrolls sideways: a table wider than the
 * window scrolls inside its own card (a labelled, keyboard-focusable region), and the actions column is
 * sticky on the right, so Edit, Revoke or Delete stay visible. `null` in `columns` is that actions column,
 * named for screen readers only; put its cells in `ActionsCell`. With `stacked`, phones get one card per
 * row instead (app/globals.css): give each cell its column's name as `data-label`.
 */
export function DataTable({
  caption,
  columns,
  children,
  footer,
  minWidth = '44rem',
  stacked = false,
}: {
  caption: string;
  columns: (string | null)[];
  children: ReactNode;
  footer?: ReactNode;
  /** Below this the table scrolls inside its card instead of squeezing its columns. */
  minWidth?: string;
  /** Below 40rem, one card per row with every column shown, instead of a table scrolling sideways. */
  stacked?: boolean;
}) {
  return (
    <div className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <div role="region" aria-label={caption} tabIndex={0} className="overflow-x-auto rounded-lg">
        {/* Long names and comments in rows wrap, even inside a word, rather than widen the table past its card;
            headings and actions keep their words whole. */}
        <table
          className={`${stacked ? 'stacked-table ' : ''}w-full divide-y divide-slate-200 text-sm [&_tbody_td]:[overflow-wrap:anywhere] [&_tbody_th]:[overflow-wrap:anywhere]`}
          style={{ minWidth }}
        >
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              {columns.map((column, i) =>
                column === null ? (
                  <th key={`actions-${i}`} scope="col" className={`${stickyEnd} bg-slate-50 px-4 py-3`}>
                    <span className="sr-only">Actions</span>
                  </th>
                ) : (
                  <th key={column} scope="col" className="px-4 py-3">
                    {column}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">{children}</tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}

const stickyEnd = 'sticky right-0 z-10 shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.2)]';

/** A row's actions, pinned to the right edge of the table's card while the rest scrolls. */
export function ActionsCell({ children }: { children?: ReactNode }) {
  return (
    <td data-actions="" className={`${stickyEnd} whitespace-nowrap bg-white px-4 py-3 text-right align-top`}>
      <div className="flex justify-end gap-2">{children}</div>
    </td>
  );
}

/**
 * One of a row's actions, in its `ActionsCell`: a small ghost button showing a verb (`label`), named for its row
 * (`name`, which starts with the label, so speech input can say what it sees).
 */
export function RowAction({
  label,
  name,
  ...props
}: Omit<ButtonProps, 'children' | 'variant' | 'size' | 'aria-label'> & { label: string; name: string }) {
  return (
    <Button variant="ghost" size="sm" aria-label={name} {...props}>
      {label}
    </Button>
  );
}
