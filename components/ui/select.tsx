'use client';

import { Select as S } from 'radix-ui';
import { useId } from 'react';

export type SelectOption = { value: string; label: string };

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
  return (
    <div className="space-y-1">
      <label htmlFor={triggerId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <S.Root value={value ?? ''} onValueChange={onValueChange} disabled={disabled}>
        <S.Trigger
          id={triggerId}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className="flex w-full items-center justify-between gap-2 rounded-md bg-white px-3 py-2 text-left text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 data-[placeholder]:text-slate-500 disabled:bg-slate-100"
        >
          <S.Value placeholder={placeholder} />
          <S.Icon aria-hidden="true" className="text-slate-500">
            ▾
          </S.Icon>
        </S.Trigger>
        <S.Portal>
          <S.Content
            position="popper"
            sideOffset={4}
            className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md bg-white shadow-lg ring-1 ring-slate-200"
          >
            <S.Viewport className="p-1">
              {options.map((option) => (
                <S.Item
                  key={option.value}
                  value={option.value}
                  className="cursor-pointer select-none rounded px-3 py-2 text-sm text-slate-900 outline-none data-[highlighted]:bg-indigo-50 data-[state=checked]:font-semibold"
                >
                  <S.ItemText>{option.label}</S.ItemText>
                </S.Item>
              ))}
            </S.Viewport>
          </S.Content>
        </S.Portal>
      </S.Root>
    </div>
  );
}
