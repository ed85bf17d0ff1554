'use client';

import Script from 'next/script';
import { useEffect, useRef, useState } from 'react';

type RedocGlobal = {
  init: (specUrl: string, options: object, element: HTMLElement | null, done?: (error?: unknown) => void) => void;
};

const SANS = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace";

/**
 * Redoc's options (its 2.x names): the console's type and indigo, the browser's own scroll bars (the custom ones
 * are not reachable by keyboard), successes shown open.
 */
const OPTIONS = {
  nativeScrollbars: true,
  expandResponses: '200,201,202,204',
  jsonSampleExpandLevel: 2,
  requiredPropsFirst: true,
  hideLoading: true,
  theme: {
    colors: { primary: { main: '#4338ca' } },
    typography: {
      fontFamily: SANS,
      fontSize: '15px',
      headings: { fontFamily: SANS, fontWeight: '600' },
      code: { fontFamily: MONO },
      links: { color: '#4338ca', visited: '#4338ca', hover: '#3730a3' },
    },
    sidebar: { width: '280px' },
  },
};

/**
 * On a narrow screen Redoc hides its menu behind a round floating toggle that is a `div`: clickable, but not in the
 * tab order. This makes it a button: focusable, named, saying whether the menu is open, opened by Enter or Space,
 * and moving focus into the menu it opens (which comes before it in the page).
 */
function operableMenuToggle(root: HTMLElement): void {
  const menu = root.querySelector<HTMLElement>('.menu-content');
  const toggle = menu?.nextElementSibling;
  if (!menu || !(toggle instanceof HTMLElement) || toggle.getAttribute('role') === 'button') return;
  const open = () => getComputedStyle(menu).display !== 'none';
  toggle.setAttribute('role', 'button');
  toggle.tabIndex = 0;
  toggle.setAttribute('aria-label', 'Menu of operations');
  toggle.setAttribute('aria-expanded', 'false');
  toggle.addEventListener('click', () =>
    requestAnimationFrame(() => toggle.setAttribute('aria-expanded', String(open()))),
  );
  toggle.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    toggle.click();
    requestAnimationFrame(() => {
      if (open()) menu.querySelector<HTMLElement>('input, [role="menuitem"]')?.focus();
    });
  });
}

/**
 * Redoc titles the parts of an operation ("Authorizations:", "query Parameters", "Response Schema") with `h5`
 * straight under its `h2` and `h3`, so a screen reader's list of headings skips levels. Each such heading is given the
 * level below the nearest heading before it that is not one of them (`aria-level`; the element stays Redoc's), again
 * whenever Redoc draws more (a response opened).
 */
function orderedHeadings(root: HTMLElement): () => void {
  const apply = () => {
    let outer = 1;
    for (const heading of root.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')) {
      const level = Number(heading.tagName[1]);
      if (heading.tagName !== 'H5') outer = level;
      else if (heading.getAttribute('aria-level') !== String(outer + 1))
        heading.setAttribute('aria-level', String(outer + 1));
    }
  };
  apply();
  let queued = 0;
  const observer = new MutationObserver(() => {
    if (!queued) queued = requestAnimationFrame(() => ((queued = 0), apply()));
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    cancelAnimationFrame(queued);
  };
}

/** Loads Redoc's script (this page only) and renders the document into the page. */
export function ApiReference({ specUrl, scriptSrc }: { specUrl: string; scriptSrc: string }) {
  const into = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    if (state !== 'ready' || !into.current) return;
    operableMenuToggle(into.current);
    return orderedHeadings(into.current);
  }, [state]);
  const render = () => {
    const redoc = (window as unknown as { Redoc?: RedocGlobal }).Redoc;
    if (!redoc) return setState('failed');
    redoc.init(specUrl, OPTIONS, into.current, (error) => setState(error ? 'failed' : 'ready'));
  };
  return (
    <>
      <Script src={scriptSrc} strategy="afterInteractive" onReady={render} onError={() => setState('failed')} />
      {state === 'loading' && (
        <p role="status" className="px-4 pb-6 text-sm text-slate-600 sm:px-6">
          Loading the reference…
        </p>
      )}
      {state === 'failed' && (
        <p role="alert" className="px-4 pb-6 text-sm text-red-700 sm:px-6">
          The reference could not be shown here; the document itself is at{' '}
          <a href={specUrl} className="font-mono font-semibold underline">
            {specUrl}
          </a>
          .
        </p>
      )}
      {/* Redoc draws in its own light colours, whatever the console's scheme. */}
      <div
        ref={into}
        data-api-reference
        className="border-t border-slate-200"
        style={{ colorScheme: 'light', background: '#ffffff', color: '#1e293b' }}
      />
    </>
  );
}
