'use client';

import { Badge } from '@/components/ui/states';
import type { Subscription } from '@/lib/subscriptions/schema';
import { knownTarget } from '@/lib/subscriptions/known-target';
import { targetScheme } from '@/components/console/delivery-targets';

/** healthy and failing as the spec names them; any other value is shown as unknown, never as an error. */
export function HealthBadge({ health }: { health: string }) {
  if (health === 'healthy') return <Badge tone="green">Healthy</Badge>;
  if (health === 'failing') return <Badge tone="red">Failing</Badge>;
  return <Badge tone="slate">Unknown</Badge>;
}

export function StateBadge({ state }: { state: string }) {
  if (state === 'active') return <Badge tone="indigo">Active</Badge>;
  if (state === 'paused') return <Badge tone="amber">Paused</Badge>;
  return <Badge tone="slate">Unknown</Badge>;
}

export function TargetSummary({ target }: { target: Subscription['target'] }) {
  const known = knownTarget(target);
  return (
    <div className="min-w-0 max-w-[13rem]">
      <span className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        {known.kind === 'https' ? targetScheme(known.url) : known.kind === 'workflow' ? 'Workflow' : 'Unknown'}
      </span>
      {known.kind === 'https' && (
        <p className="truncate font-mono text-xs text-slate-800" title={known.url}>
          {known.url}
        </p>
      )}
      {known.kind === 'workflow' && <p className="truncate font-mono text-xs text-slate-800">{known.workflowId}</p>}
    </div>
  );
}

export function shortId(id: string): string {
  return `${id.slice(0, 8)}…`;
}
