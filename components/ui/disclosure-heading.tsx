import type { ReactNode } from 'react';

/**
 * A disclosure whose button is its heading's own (as an accordion's): the heading stays in the outline, the button
 * says its state with `aria-expanded` and names the region it shows with `aria-controls` while that region exists.
 * The parent keeps the state and renders the region, in place, right after.
 */
export function DisclosureHeading({
  id,
  level = 2,
  open,
  onToggle,
  controls,
  className,
  children,
}: {
  /** The heading's id, for the region's `aria-labelledby`. */
  id: string;
  level?: 2 | 3;
  open: boolean;
  onToggle: () => void;
  /** The id of the region it shows; leave it out while that region is not rendered. */
  controls?: string;
  /** The heading's text style. */
  className: string;
  children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <Heading id={id} className={className}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={controls}
        onClick={onToggle}
        className="inline-flex items-center gap-2 rounded-md text-left hover:text-indigo-700"
      >
        <span aria-hidden="true" className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>
          ▸
        </span>
        {children}
      </button>
    </Heading>
  );
}
