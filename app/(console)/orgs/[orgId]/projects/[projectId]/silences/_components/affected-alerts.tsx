'use client';

import { useEffect, useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { useSilencePreview } from '@/lib/alerts/queries';
import type { SilenceFormValues } from './edit-silence-dialog';
import { previewDraft } from './preview-draft';

/** How long typing must pause before the preview asks (Grafana's editor waits about as long). */
const PREVIEW_DEBOUNCE_MS = 400;

/** `value` once it has stayed the same for `ms` (compared as JSON, so a re-render with equal matchers waits on). */
function useSettled<T>(value: T, ms: number): T {
  const text = JSON.stringify(value);
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return JSON.parse(settled) as T;
}

/** "Affected alerts (N)" under the matchers: what the silence would mute now, asked as typing pauses. */
export function AffectedAlerts({
  orgId,
  projectId,
  control,
}: {
  orgId: string;
  projectId: string;
  control: Control<SilenceFormValues>;
}) {
  const [matchers, startsAt, endsAt] = useWatch({ control, name: ['matchers', 'startsAt', 'endsAt'] });
  const body = useSettled(previewDraft({ matchers, startsAt, endsAt }), PREVIEW_DEBOUNCE_MS);
  const preview = useSilencePreview(orgId, projectId, body);
  // A project without alerting has no alerts to show: the editor stays as it was.
  if (preview.isError && 'status' in preview.error && preview.error.status === 404) return null;

  const answer = body ? preview.data : undefined;
  const summary = !body
    ? 'Complete a matcher to see the alerts it would mute.'
    : preview.isError
      ? `Could not preview the affected alerts: ${preview.error.message}`
      : !answer
        ? 'Looking for affected alerts…'
        : answer.total === 0
          ? 'No alert firing now matches these matchers.'
          : `${answer.total} ${answer.total === 1 ? 'alert' : 'alerts'} would be muted now.`;
  const more = answer ? answer.total - answer.alerts.length : 0;

  return (
    <section aria-labelledby="affected-alerts-heading" className="space-y-2" aria-busy={preview.isFetching}>
      <h3 id="affected-alerts-heading" className="text-sm font-medium text-slate-800">
        Affected alerts {/* Room for the count is kept whether or not it has loaded, so nothing below moves. */}
        <span className="inline-block min-w-[5ch] tabular-nums" data-testid="affected-count">
          {answer ? `(${answer.total})` : '(–)'}
        </span>
      </h3>
      <p role="status" className="min-h-5 text-xs text-slate-600">
        {summary}
      </p>
      <div
        role="region"
        aria-label="Affected alerts"
        tabIndex={0}
        className="h-32 overflow-y-auto rounded-md bg-slate-50 p-2 ring-1 ring-inset ring-slate-200"
      >
        <ul className="space-y-1">
          {answer?.alerts.map((a) => (
            <li key={a.fingerprint} data-affected-alert={a.fingerprint} className="font-mono text-xs text-slate-800">
              <span className="font-semibold">{a.labels.alertname ?? a.fingerprint}</span>{' '}
              <span className="text-slate-600 [overflow-wrap:anywhere]">
                {Object.entries(a.labels)
                  .filter(([label]) => label !== 'alertname')
                  .map(([label, value]) => `${label}="${value}"`)
                  .join(' ')}
              </span>
            </li>
          ))}
        </ul>
        {more > 0 && <p className="mt-1 text-xs text-slate-600">and {more} more</p>}
      </div>
    </section>
  );
}
