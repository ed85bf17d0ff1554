'use client';

import { runMutation } from '@/components/console/feedback';
import { ErrorState } from '@/components/ui/states';
import { NOTIFICATION_KINDS, type NotificationKind } from '@/lib/notifications/messages';
import { useNotificationPreferences, useUpdateNotificationPreferences } from '@/lib/notifications/queries';

const KIND_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  key_leaked: { label: 'A key was found in public', hint: 'Your keys, and any key of an organization you administer.' },
  key_expiring: { label: 'A key of yours expires soon', hint: '7 days and 1 day before.' },
  key_revoked_by_other: { label: 'Someone else revoked a key of yours', hint: 'Not when you revoke it yourself.' },
  webhook_disabled: { label: 'A webhook was disabled', hint: 'After failing for a day; organization admins only.' },
  subscription_health: {
    label: 'A subscription is failing or recovered',
    hint: 'After 3 failed deliveries in a row, and at the next success; to those who may change it.',
  },
};

/** One switch per kind; each change is saved at once (PATCH with that kind only) and announced. */
export function NotificationPreferencesForm() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();

  return (
    <section aria-labelledby="preferences-title" className="mt-8">
      <h2 id="preferences-title" className="text-lg font-semibold text-slate-900">
        What you are told about
      </h2>
      <p className="mt-1 text-sm text-slate-600">A kind turned off is neither listed here nor emailed.</p>
      {preferences.isError ? (
        <ErrorState
          title="Could not load your preferences"
          message={preferences.error.message}
          onRetry={() => void preferences.refetch()}
        />
      ) : (
        <fieldset className="mt-3 space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <legend className="sr-only">Notification kinds</legend>
          {NOTIFICATION_KINDS.map((kind) => (
            <div key={kind} className="flex items-start gap-3">
              <input
                id={`pref-${kind}`}
                type="checkbox"
                aria-describedby={`pref-${kind}-hint`}
                className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
                disabled={!preferences.data}
                checked={preferences.data?.[kind] ?? false}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  void runMutation(() => update.mutateAsync({ [kind]: on }), {
                    success: `${KIND_LABELS[kind].label}: ${on ? 'on' : 'off'}.`,
                    failure: 'Could not save your preference',
                  });
                }}
              />
              <div>
                <label htmlFor={`pref-${kind}`} className="text-sm font-medium text-slate-800">
                  {KIND_LABELS[kind].label}
                </label>
                <p id={`pref-${kind}-hint`} className="text-xs text-slate-500">
                  {KIND_LABELS[kind].hint}
                </p>
              </div>
            </div>
          ))}
        </fieldset>
      )}
    </section>
  );
}
