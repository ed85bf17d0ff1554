'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { CopyId } from '@/components/console/copy-id';
import { LocalDate } from '@/components/console/time';
import { knownTarget } from '@/lib/subscriptions/known-target';
import type { Subscription } from '@/lib/subscriptions/schema';

function Setting({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** Where it delivers and how: the settings the edit dialog changes, the queue it reads and its id. */
export function Settings({ sub, queueName, queueHref }: { sub: Subscription; queueName?: string; queueHref: string }) {
  const target = knownTarget(sub.target);
  const policy = sub.retryPolicy;
  return (
    <dl className="grid gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3">
      <Setting term="Subscription ID">
        <CopyId id={sub.id} what="the subscription" />
      </Setting>
      <Setting term="Queue">
        <Link href={queueHref} className="font-semibold text-indigo-700 hover:underline">
          {queueName ?? <span className="font-mono text-xs">{sub.queueId}</span>}
        </Link>
      </Setting>
      <Setting term="Target">
        {target.kind === 'https' ? (
          <span className="font-mono text-xs">{target.url}</span>
        ) : target.kind === 'workflow' ? (
          <>
            Workflow <span className="font-mono text-xs">{target.workflowId}</span>
          </>
        ) : (
          'Unknown kind'
        )}
      </Setting>
      {target.kind === 'https' && <Setting term="Timeout">{target.timeoutSeconds} s</Setting>}
      <Setting term="Batch size">{sub.batchSize} messages</Setting>
      <Setting term="Max concurrency">{sub.maxConcurrency} deliveries</Setting>
      <Setting term="Retry policy">
        {policy.maxAttempts} attempts, waiting {policy.minBackoffSeconds} s to {policy.maxBackoffSeconds} s between
      </Setting>
      <Setting term="Created">
        <LocalDate iso={sub.createdAt} exact />
      </Setting>
    </dl>
  );
}
