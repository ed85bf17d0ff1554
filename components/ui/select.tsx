'use client';

import { useId, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { RadixSelect } from './select-radix';
import { onDemand } from './on-demand';
import { triggerClass } from './select-style';

/** `description`, when given, is shown under the option's label in the open list (the trigger shows the label). */
export type SelectOption = { value: string; label: string; description?: string };

/*
 * Radix's select is about a tenth of a console page's script (its popper and floating-ui with it), and the shell's
 * organization and project switchers are on every page: so a select first renders as a plain button that looks and
 * reads the same (a labelled combobox showing the chosen option), and Radix's select (./select-radix.tsx) loads
 * when someone points at, focuses or opens one. Opening it (a press, Enter, Space, an arrow key) swaps in the real
 * one, already open; once loaded, selects mounted later render it directly.
 */
type Impl = typeof RadixSelect;
const radixSelect = onDemand(() => import('./select-radix').then((m) => m.RadixSelect));
const load = radixSelect.load;

/** A labelled single-choice select (Radix: keyboard, typeahead, screen-reader text). */
export function Select({
  label,
  value,
  options,
  onValueChange,
  placeholder,
  disabled,
  id,
  invalid,
  describedBy,
}: {
  label: string;
  value: string | undefined;
  options: SelectOption[];
  onValueChange: (value: string) => void;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const fallbackId = useId();
  const triggerId = id ?? fallbackId;
  // A select mounted after the module loaded uses it at once; one that was on the page before waits to be opened,
  // so it never turns into another element under a press that has begun.
  const [Real, setReal] = useState<Impl | null>(radixSelect.current);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const open = () => {
    setOpenOnLoad(true);
    void load().then((impl) => setReal(() => impl));
  };
  const chosen = options.find((o) => o.value === value);
  return (
    <div className="space-y-1">
      <label htmlFor={triggerId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {Real ? (
        <Real
          triggerId={triggerId}
          value={value}
          options={options}
          onValueChange={onValueChange}
          placeholder={placeholder}
          disabled={disabled}
          invalid={invalid}
          describedBy={describedBy}
          defaultOpen={openOnLoad}
        />
      ) : (
        <button
          type="button"
          id={triggerId}
          role="combobox"
          // As Radix's closed trigger does: the list it would control is not in the page until it opens.
          aria-controls={`${triggerId}-options`}
          aria-expanded="false"
          aria-autocomplete="none"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          disabled={disabled}
          data-placeholder={chosen ? undefined : ''}
          className={triggerClass}
          onPointerEnter={() => void load()}
          onFocus={() => void load()}
          // A mouse opens it on press, as Radix's does; touch and the keyboard (Enter, Space) by click.
          onPointerDown={(event: PointerEvent) => {
            if (event.pointerType !== 'mouse') return void load();
            if (event.button !== 0 || event.ctrlKey) return;
            event.preventDefault();
            open();
          }}
          onClick={(event) => {
            if ((event.nativeEvent as globalThis.PointerEvent).pointerType !== 'mouse') open();
          }}
          onKeyDown={(event: KeyboardEvent) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              open();
            }
          }}
        >
          <span style={{ pointerEvents: 'none' }}>{chosen?.label ?? placeholder}</span>
          <span aria-hidden="true" className="text-slate-500">
            ▾
          </span>
        </button>
      )}
    </div>
  );
}
