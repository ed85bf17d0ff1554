'use client';

import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';

type Copied = 'idle' | 'copied' | 'failed';

/**
 * Copies `text` to the clipboard; its name says what ("Copy ID of the silence"), and a polite live region says
 * whether it worked. Where the clipboard is refused, the text stays on screen to select by hand.
 */
export function CopyButton({ text, what, className = '' }: { text: string; what: string; className?: string }) {
  const [state, setState] = useState<Copied>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <Button variant="secondary" size="sm" aria-label={`Copy ${what}`} onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : 'Copy'}
      </Button>
      <span role="status" className="text-xs">
        {state === 'copied' ? (
          <span className="sr-only">Copied {what}.</span>
        ) : state === 'failed' ? (
          <span className="text-red-700">Could not copy: select it and copy it by hand.</span>
        ) : null}
      </span>
    </span>
  );
}

/**
 * The id the API, the CLI and amtool take for a resource, with a copy button: slugs are labels, this is what a
 * request names.
 */
export function CopyId({ id, what }: { id: string; what: string }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <span className="text-slate-600">ID</span>
      <code className="min-w-0 break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-900">
        {id}
      </code>
      <CopyButton text={id} what={`ID of ${what}`} />
    </div>
  );
}
