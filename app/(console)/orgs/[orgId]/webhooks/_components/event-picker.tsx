'use client';

import { actionNoun, WEBHOOK_EVENTS } from '@/lib/audit-actions';

/** The events grouped by noun, in the list's order (the audit actions, then the alerts'): one fieldset per noun. */
const GROUPS: { noun: string; actions: string[] }[] = [];
for (const action of WEBHOOK_EVENTS) {
  const noun = actionNoun(action);
  const group = GROUPS.find((g) => g.noun === noun) ?? GROUPS[GROUPS.push({ noun, actions: [] }) - 1];
  group.actions.push(action);
}

const checkbox = 'size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600 disabled:opacity-50';

function Check({
  id,
  label,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        className={checkbox}
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label htmlFor={id} className="min-w-0 break-words font-mono text-xs text-slate-800">
        {label}
      </label>
    </div>
  );
}

/**
 * Chooses an endpoint's `events`: every event (`*`), every event of a noun (`api_key.*`), or single actions.
 * A wider choice covers the narrower ones, which are shown checked and disabled rather than sent twice.
 */
export function EventPicker({
  value,
  onChange,
  invalid,
  describedBy,
}: {
  value: string[];
  onChange: (events: string[]) => void;
  invalid: boolean;
  describedBy: string;
}) {
  const has = (pattern: string) => value.includes(pattern);
  const set = (pattern: string, on: boolean) =>
    onChange(on ? [...value.filter((p) => p !== pattern), pattern] : value.filter((p) => p !== pattern));
  const all = has('*');

  return (
    <fieldset aria-describedby={describedBy} aria-invalid={invalid || undefined} className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <Check id="event-all" label="* (every event)" checked={all} onChange={(on) => set('*', on)} />
      <div className="grid max-h-72 gap-3 overflow-y-auto rounded-md p-2 ring-1 ring-inset ring-slate-200 sm:grid-cols-2">
        {GROUPS.map(({ noun, actions }) => {
          const wholeNoun = all || has(`${noun}.*`);
          return (
            <fieldset key={noun} className="space-y-1">
              <legend className="text-xs font-semibold text-slate-600">{noun.replaceAll('_', ' ')}</legend>
              <Check
                id={`event-${noun}`}
                label={`${noun}.*`}
                checked={wholeNoun}
                disabled={all}
                onChange={(on) =>
                  onChange([...value.filter((p) => actionNoun(p) !== noun), ...(on ? [`${noun}.*`] : [])])
                }
              />
              {actions.map((action) => (
                <Check
                  key={action}
                  id={`event-${action}`}
                  label={action}
                  checked={wholeNoun || has(action)}
                  disabled={wholeNoun}
                  onChange={(on) => set(action, on)}
                />
              ))}
            </fieldset>
          );
        })}
      </div>
    </fieldset>
  );
}
