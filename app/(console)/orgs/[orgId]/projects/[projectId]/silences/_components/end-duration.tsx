'use client';

import { localTime } from '@/lib/format/time';
import { TimeField } from './time-field';

export const DURATIONS = [
  { id: '1h', label: '1 hour', ms: 3_600_000 },
  { id: '4h', label: '4 hours', ms: 4 * 3_600_000 },
  { id: '1d', label: '1 day', ms: 86_400_000 },
] as const;
export type Duration = (typeof DURATIONS)[number]['id'] | 'custom';

/** The end of a silence that lasts `duration` from its start (a start in the past means now). */
export function endAfter(duration: Exclude<Duration, 'custom'>, startsAt: string, now = Date.now()): string {
  const start = Math.max(Date.parse(startsAt) || now, now);
  return new Date(start + DURATIONS.find((d) => d.id === duration)!.ms).toISOString();
}

/** A new silence's end: how long it lasts (native radios, so arrow keys move between them), or a custom time. */
export function EndDuration({
  duration,
  onDurationChange,
  endsAt,
  onEndsAtChange,
  error,
}: {
  duration: Duration;
  onDurationChange: (duration: Duration) => void;
  endsAt: string;
  onEndsAtChange: (iso: string) => void;
  error?: string;
}) {
  const choices: { id: Duration; label: string }[] = [...DURATIONS, { id: 'custom', label: 'Custom' }];
  return (
    <fieldset className="space-y-2" aria-describedby="silence-duration-end">
      <legend className="text-sm font-medium text-slate-800">Duration</legend>
      <div className="flex flex-wrap gap-2">
        {choices.map((choice) => (
          <label
            key={choice.id}
            className="inline-flex cursor-pointer items-center gap-2 rounded-md px-3 py-1.5 text-sm text-slate-800 ring-1 ring-inset ring-slate-300 has-[:checked]:bg-indigo-50 has-[:checked]:ring-indigo-600 has-[:focus-visible]:ring-2"
          >
            <input
              type="radio"
              name="silence-duration"
              value={choice.id}
              checked={duration === choice.id}
              onChange={() => onDurationChange(choice.id)}
              className="accent-indigo-600"
            />
            {choice.label}
          </label>
        ))}
      </div>
      {duration === 'custom' ? (
        <TimeField
          id="silence-ends"
          label="End"
          value={endsAt}
          onChange={onEndsAtChange}
          error={error}
          readOnly={false}
        />
      ) : (
        <p id="silence-duration-end" className="text-sm text-slate-600">
          Ends {endsAt ? localTime(endsAt) : '—'} <span className="font-mono text-xs text-slate-500">UTC {endsAt}</span>
          {error && (
            <span role="alert" className="block text-red-700">
              {error}
            </span>
          )}
        </p>
      )}
    </fieldset>
  );
}
