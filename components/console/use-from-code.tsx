'use client';

import Link from 'next/link';
import { useId, useState, useSyncExternalStore } from 'react';
import { DisclosureHeading } from '@/components/ui/disclosure-heading';
import { listInWords } from '@/lib/policy-description';
import { CodeSnippet } from './code-snippet';

export type CodeSample = { id: string; title: string; text: string };
/** Which key may run some of the samples: `permissions` in this project, or none at all (a door every key keeps). */
export type KeyNeed = { what: string; permissions: readonly string[] };

const noSubscription = () => () => {};

/** The origin this console is reached at, as a request copied from it must name; empty while rendered on the server. */
export function useConsoleOrigin(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => '',
  );
}

/**
 * The API keys page with the create dialog open on a key restricted to these permissions in this project (the page
 * reads `new`, `project` and `permission`), for a panel's "make one".
 */
export function newKeyHref(orgId: string, projectId: string | null, permissions: readonly string[]): string {
  const query = new URLSearchParams({ new: 'restricted' });
  if (projectId) query.set('project', projectId);
  for (const permission of permissions) query.append('permission', permission);
  return `/orgs/${orgId}/api-keys?${query.toString()}`;
}

function NeedLine({ need, scope }: { need: KeyNeed; scope: string }) {
  if (need.permissions.length === 0) return <li>{need.what}: any key, restricted or not; it needs no permission.</li>;
  return (
    <li>
      {need.what}: a key with <span className="font-mono text-slate-800">{listInWords(need.permissions)}</span>
      {scope}.
    </li>
  );
}

/**
 * "Use from code" beside a resource: the requests that do its common act with this resource's real URL, each with a
 * copy button, which key may send them and where to make one. A disclosure, closed until asked, so the page stays
 * short; the requests wrap inside their own box at any width.
 */
export function UseFromCode({
  samples,
  needs,
  makeKey,
  scope = ' in this project',
  note,
  level = 2,
}: {
  samples: CodeSample[];
  needs: KeyNeed[];
  /** Where to make a key that may: the API keys page, started from these permissions. */
  makeKey?: string;
  scope?: string;
  /** A line under the requests: what a placeholder means, what the answer holds. */
  note?: string;
  level?: 2 | 3;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="min-w-0 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <DisclosureHeading
        id={`${id}-title`}
        level={level}
        open={open}
        onToggle={() => setOpen(!open)}
        controls={open ? `${id}-body` : undefined}
        className="text-sm font-semibold text-slate-900"
      >
        Use from code
      </DisclosureHeading>
      {/* Rendered only when open: the requests' copy buttons and live regions are not on the page until asked for. */}
      {open && (
        <div id={`${id}-body`} className="mt-3 space-y-4">
          {samples.map((sample) => (
            <CodeSnippet key={sample.id} id={sample.id} title={sample.title} text={sample.text} />
          ))}
          {note && <p className="text-sm text-slate-600">{note}</p>}
          <div className="space-y-1 text-sm text-slate-700">
            <p id={`${id}-needs`}>Which key may send {samples.length === 1 ? 'it' : 'them'}:</p>
            <ul aria-labelledby={`${id}-needs`} className="list-disc space-y-0.5 pl-5">
              {needs.map((need) => (
                <NeedLine key={need.what} need={need} scope={scope} />
              ))}
            </ul>
            {makeKey && (
              <p>
                <Link href={makeKey} className="font-semibold text-indigo-700 hover:text-indigo-600">
                  Create a key that may do this
                </Link>{' '}
                (API keys), then set <span className="font-mono">SVC_API_KEY</span> to it.
              </p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
