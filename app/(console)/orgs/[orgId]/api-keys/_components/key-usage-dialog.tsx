'use client';

import dynamic from 'next/dynamic';
import { Dialog } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/states';
import { useApiKeyUsage } from '@/lib/api-keys/rotation-queries';
import type { ApiKey } from '@/lib/api-keys/schema';
import { CopyId } from '@/components/console/copy-id';

// recharts is most of the key list's script: it loads when a usage dialog first opens, not with the page.
const UsageChart = dynamic(() => import('./usage-chart').then((m) => m.UsageChart), { ssr: false });

/** Requests per UTC day for the last 30 days, as a bar chart with a plain-text summary for screen readers. */
export function KeyUsageDialog({
  orgId,
  apiKey,
  onOpenChange,
  returnFocus,
}: {
  /** Where focus goes when the dialog closes: the row's button that opened it. */
  returnFocus?: () => HTMLElement | null | undefined;
  orgId: string;
  apiKey: ApiKey | null;
  onOpenChange: (open: boolean) => void;
}) {
  const usage = useApiKeyUsage(orgId, apiKey?.id ?? '', apiKey !== null);
  const days = usage.data?.days ?? [];
  const total = days.reduce((n, d) => n + d.requests, 0);
  const today = days.at(-1)?.requests ?? 0;
  return (
    <Dialog
      returnFocus={returnFocus}
      open={apiKey !== null}
      onOpenChange={onOpenChange}
      title={`Usage of “${apiKey?.name ?? ''}”`}
      description="Requests made with this key per UTC day, last 30 days. Counts arrive within a few seconds."
    >
      {apiKey && (
        <div className="mb-3">
          <CopyId id={apiKey.id} what={`the key ${apiKey.name}`} />
        </div>
      )}
      {usage.isPending ? (
        <p className="text-sm text-slate-600">Loading usage…</p>
      ) : usage.isError ? (
        <ErrorState title="Could not load usage" message={usage.error.message} onRetry={() => void usage.refetch()} />
      ) : (
        <figure>
          <figcaption className="mb-3 text-sm text-slate-700" data-testid="usage-summary">
            {total} requests in 30 days, {today} today.
          </figcaption>
          <div className="h-48 w-full" aria-hidden="true">
            <UsageChart days={days} />
          </div>
        </figure>
      )}
    </Dialog>
  );
}
