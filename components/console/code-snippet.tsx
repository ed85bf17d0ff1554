'use client';

import { CopyButton } from './copy-id';

/**
 * Text to paste elsewhere (a configuration file, a command), under a title that says where it goes, with a copy
 * button. Long lines wrap on screen; the copy is the text as it is.
 */
export function CodeSnippet({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <figure className="min-w-0 space-y-1">
      <figcaption className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-800">{title}</span>
        <CopyButton text={text} what={title} />
      </figcaption>
      <pre
        id={id}
        className="whitespace-pre-wrap break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-xs text-slate-900"
      >
        {text}
      </pre>
    </figure>
  );
}
