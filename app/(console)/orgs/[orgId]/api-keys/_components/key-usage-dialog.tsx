'use client';

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Dialog } from '@/components/ui/dialog';
import { ErrorState } from '@/components/ui/states';
import { useApiKeyUsage } from '@/lib/api-keys/rotation-queries';
import type { ApiKey } from '@/lib/api-keys/schema';

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
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={days} margin={{ top: 4, right: 4, bottom: 4, left: 0 }}>
                <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={11} interval={6} />
                <YAxis allowDecimals={false} fontSize={11} width={36} />
                <Tooltip formatter={(v) => [String(v), 'Requests']} />
                <Bar dataKey="requests" fill="#4f46e5" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </figure>
      )}
    </Dialog>
  );
}
