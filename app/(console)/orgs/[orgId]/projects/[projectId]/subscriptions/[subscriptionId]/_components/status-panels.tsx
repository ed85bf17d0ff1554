'use client';

import type { ReactNode } from 'react';
import { TimeAgo } from '@/components/console/time';
import type { SubscriptionActivity } from '@/lib/subscriptions/activity-schema';
import type { Subscription } from '@/lib/subscriptions/schema';
import { Age, count } from '../../../queues/_components/queue-words';
import { HealthBadge, StateBadge } from '../../_components/display';
import { errorInWords, statusText } from '../../_components/error-words';
import { useZone } from '@/components/console/time';
import { exactTime } from '@/lib/format/time';

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** The last failed attempt in words, then its class, HTTP status, the target's own message and when. */
export function LastError({ error }: { error: Subscription['status']['lastError'] }) {
  const zone = useZone();
  if (!error) return <span className="text-slate-600">None</span>;
  const words = errorInWords(error);
  return (
    <div className="rounded-md bg-red-50 px-3 py-2 text-red-900" data-testid="last-error">
      <p className="font-medium">{words}</p>
      <p className="mt-1 text-xs">
        Class <code className="font-mono">{error.class}</code> ·{' '}
        {error.status === 0 ? 'no HTTP answer' : `HTTP ${statusText(error.status)}`} ·{' '}
        <time dateTime={error.at}>{exactTime(error.at, zone)}</time>
      </p>
      {error.message !== words && <p className="mt-1 break-words font-mono text-xs">{error.message}</p>}
    </div>
  );
}

/** Health, state, the last success and the last error. */
export function StatusPanel({ sub }: { sub: Subscription }) {
  return (
    <dl className="grid gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[auto_auto_auto_1fr]">
      <Item term="Health">
        <HealthBadge health={sub.status.health} />
      </Item>
      <Item term="State">
        <StateBadge state={sub.state} />
      </Item>
      <Item term="Last success">
        <TimeAgo iso={sub.status.lastSuccessAt} />
      </Item>
      <Item term="Last error">
        <LastError error={sub.status.lastError} />
      </Item>
    </dl>
  );
}

function Figure({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="rounded-lg bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{children}</dd>
      {hint && <dd className="text-xs text-slate-600">{hint}</dd>}
    </div>
  );
}

/** What waits in the subscription now: ready, delayed (a retry or a publish delay), in flight, dead, the oldest. */
export function BacklogFigures({
  backlog,
  sub,
}: {
  backlog: SubscriptionActivity['backlog'] | undefined;
  sub: Subscription;
}) {
  const value = (n: number | undefined) =>
    n === undefined ? <span className="inline-block h-7 w-12 animate-pulse rounded bg-slate-200" /> : count(n);
  return (
    <dl aria-label="Backlog" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      <Figure label="Ready" hint="Waiting for a delivery">
        {value(backlog?.ready)}
      </Figure>
      <Figure label="Delayed" hint="Waiting for a retry or a delay">
        {value(backlog?.delayed)}
      </Figure>
      <Figure label="In flight" hint={`Of at most ${count(sub.maxConcurrency * sub.batchSize)}`}>
        {value(backlog?.inFlight)}
      </Figure>
      <Figure label="Dead-lettered" hint="Failed every attempt">
        {value(backlog?.deadLettered)}
      </Figure>
      <Figure label="Oldest ready" hint="Since it was published">
        {backlog === undefined ? (
          value(undefined)
        ) : backlog.oldestReadyAt ? (
          <span className="text-lg">
            <Age iso={backlog.oldestReadyAt} />
          </span>
        ) : (
          <span className="text-lg text-slate-600">None</span>
        )}
      </Figure>
    </dl>
  );
}
