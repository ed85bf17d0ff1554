'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';

/**
 * The id the API and the CLI take, with a Copy button: what a person pastes into `svc` or a request. The copy is
 * announced (a toast, a polite live region) and the button says Copied until the id is copied again.
 */
export function CopyId({ id, what }: { id: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
      toast.success(`Copied the ${what} ID.`);
    } catch {
      toast.error(`Could not copy the ${what} ID`, { description: 'Select it and copy it by hand.' });
    }
  };
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-2">
      <code className="font-mono text-xs break-all text-slate-800">{id}</code>
      <Button variant="secondary" size="sm" aria-label={`Copy the ${what} ID`} onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </span>
  );
}
