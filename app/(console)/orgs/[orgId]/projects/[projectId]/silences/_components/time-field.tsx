'use client';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/field';
import { fromLocalInput, toLocalInput } from './format';

const QUICK = [
  { label: '+1h', ms: 3_600_000 },
  { label: '+4h', ms: 4 * 3_600_000 },
  { label: '+1d', ms: 86_400_000 },
];

/** A local-time picker whose value is the UTC instant; shows the UTC form beside it. */
export function TimeField({
  id,
  label,
  value,
  onChange,
  error,
  readOnly,
  quickDurations,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (iso: string) => void;
  error?: string;
  readOnly: boolean;
  quickDurations?: boolean;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label} <span className="font-normal text-slate-500">(your local time)</span>
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={id}
          type="datetime-local"
          className="w-auto"
          value={toLocalInput(value)}
          disabled={readOnly}
          invalid={!!error}
          aria-describedby={`${id}-utc ${id}-error`}
          onChange={(e) => onChange(fromLocalInput(e.target.value))}
        />
        {quickDurations &&
          !readOnly &&
          QUICK.map((q) => (
            <Button
              key={q.label}
              variant="secondary"
              size="sm"
              aria-label={`Extend the end by ${q.label.slice(1)}`}
              onClick={() => onChange(new Date(Date.parse(value) + q.ms).toISOString())}
            >
              {q.label}
            </Button>
          ))}
      </div>
      <p id={`${id}-utc`} className="font-mono text-xs text-slate-500">
        UTC {value || '—'}
      </p>
      <p id={`${id}-error`} className="min-h-5 text-sm text-red-700" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </div>
  );
}
