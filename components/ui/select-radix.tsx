'use client';

import { Select as S } from 'radix-ui';
import type { SelectOption } from './select';
import { triggerClass } from './select-style';

/** Radix's select (keyboard, typeahead, screen-reader text): `Select` in ./select.tsx loads it on first use. */
export function RadixSelect({
  triggerId,
  value,
  options,
  onValueChange,
  placeholder,
  disabled,
  invalid,
  describedBy,
  defaultOpen,
}: {
  triggerId: string;
  value: string | undefined;
  options: SelectOption[];
  onValueChange: (value: string) => void;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  defaultOpen: boolean;
}) {
  return (
    <S.Root value={value ?? ''} onValueChange={onValueChange} disabled={disabled} defaultOpen={defaultOpen}>
      <S.Trigger
        id={triggerId}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={triggerClass}
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
          className="z-50 max-h-[min(18rem,var(--radix-select-content-available-height))] min-w-[var(--radix-select-trigger-width)] max-w-[calc(100vw-1rem)] overflow-hidden rounded-md bg-white shadow-lg ring-1 ring-slate-200"
        >
          <S.Viewport className="p-1">
            {options.map((option) => (
              <S.Item
                key={option.value}
                value={option.value}
                aria-describedby={option.description ? `${triggerId}-${option.value}-description` : undefined}
                className="cursor-pointer select-none rounded px-3 py-2 text-sm text-slate-900 outline-none data-[highlighted]:bg-indigo-50 data-[state=checked]:font-semibold"
              >
                <S.ItemText>{option.label}</S.ItemText>
                {option.description && (
                  <span
                    id={`${triggerId}-${option.value}-description`}
                    className="block max-w-sm text-xs font-normal text-slate-600"
                  >
                    {option.description}
                  </span>
                )}
              </S.Item>
            ))}
          </S.Viewport>
        </S.Content>
      </S.Portal>
    </S.Root>
  );
}
