import type { ReactNode } from 'react';

/** What a list says when it has nothing; its title is the level below the page's h1 (axe's heading-order). */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {children && <div className="mt-1 text-sm text-slate-600">{children}</div>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 font-semibold underline">
          Try again
        </button>
      )}
    </div>
  );
}

/** Placeholder rows with the table's own height, so content does not jump in when it loads. */
export function TableSkeleton({
  rows = 3,
  columns = 5,
  label = 'Loading',
}: {
  rows?: number;
  columns?: number;
  label?: string;
}) {
  return (
    <div
      role="status"
      aria-label={label}
      className="overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
    >
      {Array.from({ length: rows }, (_, r) => (
        <div key={r} className="flex gap-4 border-b border-slate-100 px-4 py-4 last:border-0">
          {Array.from({ length: columns }, (_, c) => (
            <div key={c} className="h-4 flex-1 animate-pulse rounded bg-slate-200" />
          ))}
        </div>
      ))}
    </div>
  );
}

export function Badge({
  tone = 'slate',
  children,
}: {
  tone?: 'slate' | 'green' | 'red' | 'amber' | 'indigo';
  children: ReactNode;
}) {
  const tones = {
    slate: 'bg-slate-100 text-slate-700 ring-slate-300',
    green: 'bg-green-50 text-green-800 ring-green-600/30',
    red: 'bg-red-50 text-red-800 ring-red-600/30',
    amber: 'bg-amber-50 text-amber-800 ring-amber-600/30',
    indigo: 'bg-indigo-50 text-indigo-800 ring-indigo-600/30',
  };
  return (
    <span
      className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        {/* Focusable from script: where focus goes when a dialog's opener is gone (components/ui/focus-return). */}
        <h1 tabIndex={-1} className="text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none">
          {title}
        </h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** The banner of a page the caller may read but not change, saying which permission would allow it. */
export function ReadOnlyNote({ children }: { children: ReactNode }) {
  return (
    <p role="note" className="mb-4 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
      {children}
    </p>
  );
}
