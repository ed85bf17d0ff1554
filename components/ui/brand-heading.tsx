import type { ReactNode } from 'react';

/** The product's mark, the page's h1 and a line under it: the head of the sign-in and device-login pages. */
export function BrandHeading({
  title,
  className,
  children,
}: {
  title: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <div
        aria-hidden="true"
        className="mx-auto mb-4 flex size-10 items-center justify-center rounded-lg bg-indigo-600 text-lg font-bold text-white"
      >
        S
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-1 text-sm text-slate-600">{children}</p>
    </div>
  );
}
