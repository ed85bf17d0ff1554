import Link from 'next/link';

/** What every dead end says: a heading, why, and a way back. */
export function NotFoundPanel({
  title = 'Not found',
  children = 'This page does not exist, or you do not have access to it.',
  backHref = '/orgs',
  backLabel = 'Back to the console',
}: {
  title?: string;
  children?: React.ReactNode;
  backHref?: string;
  backLabel?: string;
}) {
  return (
    <div className="mx-auto max-w-md rounded-lg bg-white px-6 py-12 text-center shadow-sm ring-1 ring-slate-200">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 tabIndex={-1} className="mt-2 text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none">
        {title}
      </h1>
      <p className="mt-2 text-sm text-slate-600">{children}</p>
      <Link
        href={backHref}
        className="mt-6 inline-flex rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
      >
        {backLabel}
      </Link>
    </div>
  );
}
