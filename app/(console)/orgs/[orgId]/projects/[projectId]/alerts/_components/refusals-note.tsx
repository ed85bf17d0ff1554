'use client';

import { RelativeTime } from '@/components/console/time';
import { useAlertRefusals } from '@/lib/alerts/queries';

const plural = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/**
 * Says that alerts were refused (over a limit, or invalid) lately: the sender got each refusal in its 400, but a
 * project's people look here, not in Prometheus's log. Nothing when none was.
 */
export function RefusalsNote({ orgId, projectId }: { orgId: string; projectId: string }) {
  const { data } = useAlertRefusals(orgId, projectId);
  if (!data || data.alerts === 0) return null;
  const [latest] = data.latest;
  return (
    <section
      aria-labelledby="alerts-refused"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <h2 id="alerts-refused" className="font-medium">
        {plural(data.alerts, 'alert')} refused in the last day ({plural(data.batches, 'post')})
      </h2>
      <p className="mt-1 break-words">
        Latest <RelativeTime iso={latest.at} />: {latest.reason}. Senders were told in their response; the rest of each
        post was stored.
      </p>
    </section>
  );
}
