'use client';

import { useState, type ReactNode } from 'react';
import { useDiscardGuard } from '@/components/console/discard-guard';
import { Dialog, DialogClose, DialogFooter } from '@/components/ui/dialog';
import { Button } from '@/components/ui/button';
import type { Subscription } from '@/lib/subscriptions/schema';
import { knownTarget } from '@/lib/subscriptions/known-target';
import { localTime } from '@/lib/format/time';
import { TimeAgo } from '@/components/console/time';
import { targetScheme } from '@/components/console/delivery-targets';
import { HealthBadge, StateBadge } from './display';
import { SubscriptionForm } from './subscription-form';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-3 py-1.5">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="col-span-2 min-w-0 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function LastError({ error }: { error: Subscription['status']['lastError'] }) {
  if (!error) return <span className="text-slate-500">None</span>;
  return (
    <div className="rounded-md bg-red-50 px-3 py-2 text-red-900" aria-label="Last error">
      <p className="font-mono text-xs">
        {error.status} · {error.class}
      </p>
      <p className="mt-1">{error.message}</p>
      <p className="mt-1 text-xs text-red-800">
        <time dateTime={error.at}>{localTime(error.at)}</time>
      </p>
    </div>
  );
}

/** What the subscription is and how it is doing; editors also get the form, everyone else the values. */
export function SubscriptionDialog({
  orgId,
  projectId,
  subscription: sub,
  canEdit,
  onClose,
}: {
  orgId: string;
  projectId: string;
  subscription: Subscription;
  canEdit: boolean;
  onClose: () => void;
}) {
  const target = knownTarget(sub.target);
  const [dirty, setDirty] = useState(false);
  const guard = useDiscardGuard(dirty, onClose);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && guard.requestClose()}
      title={`Subscription ${sub.slug}`}
      description={sub.resourceName}
    >
      <dl className="divide-y divide-slate-100">
        <Row term="Queue">
          <span className="font-mono text-xs">{sub.queueId}</span>
        </Row>
        <Row term="State">
          <StateBadge state={sub.state} />
        </Row>
        <Row term="Health">
          <HealthBadge health={sub.status.health} />
        </Row>
        <Row term="Last success">
          <TimeAgo iso={sub.status.lastSuccessAt} />
        </Row>
        <Row term="Last error">
          <LastError error={sub.status.lastError} />
        </Row>
        <Row term="Target kind">
          {target.kind === 'https' ? targetScheme(target.url) : target.kind === 'workflow' ? 'Workflow' : 'Unknown'}
        </Row>
        {target.kind === 'workflow' && (
          <Row term="Workflow ID">
            <span className="font-mono text-xs">{target.workflowId}</span>
          </Row>
        )}
        {!canEdit && target.kind === 'https' && (
          <>
            <Row term="Target URL">
              <span className="font-mono text-xs">{target.url}</span>
            </Row>
            <Row term="Timeout">{target.timeoutSeconds} s</Row>
          </>
        )}
        {!canEdit && (
          <>
            <Row term="Batch size">{sub.batchSize}</Row>
            <Row term="Max concurrency">{sub.maxConcurrency}</Row>
          </>
        )}
        <Row term="Updated">
          <time dateTime={sub.updatedAt}>{localTime(sub.updatedAt)}</time>
        </Row>
      </dl>
      {canEdit ? (
        <SubscriptionForm
          orgId={orgId}
          projectId={projectId}
          subscription={sub}
          onCancel={guard.requestClose}
          onDone={onClose}
          onDirtyChange={setDirty}
          discardPrompt={guard.prompt}
        />
      ) : (
        <>
          <p className="mt-4 text-sm text-slate-600">
            You can view this subscription. Changing it needs the{' '}
            <code className="font-mono text-xs">queues.subscriptions.update</code> permission on this project.
          </p>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary">Close</Button>
            </DialogClose>
          </DialogFooter>
        </>
      )}
    </Dialog>
  );
}
