'use client';

import { useEffect, useRef } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FieldError, Input } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { useShownError } from '@/components/ui/shown-error';
import {
  EMPTY_MATCH_MESSAGE,
  MATCHER_OPS,
  matchesEmptyString,
  MAX_MATCHERS,
  type Matcher,
} from '@/lib/silences/matchers';
import type { SilenceFormValues } from './edit-silence-dialog';

const OP_OPTIONS = [
  { value: '=', label: '= equals' },
  { value: '!=', label: '!= differs' },
  { value: '=~', label: '=~ regex' },
  { value: '!~', label: '!~ not regex' },
];

/** Rows of label / operator / value, validated as you type by the same module the server uses. */
export function MatcherEditor({
  control,
  register,
  setValue,
  errors,
  readOnly,
}: {
  control: Control<SilenceFormValues>;
  register: UseFormRegister<SilenceFormValues>;
  setValue: UseFormSetValue<SilenceFormValues>;
  errors: FieldErrors<SilenceFormValues>;
  readOnly: boolean;
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'matchers' });
  const list = useRef<HTMLUListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  // After a row is removed focus moves to the Remove button now in its place (or the last row's), and to
  // "Add matcher" when the one row left cannot be removed: never to the page.
  const removedAt = useRef<number | null>(null);
  useEffect(() => {
    if (removedAt.current === null) return;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button[data-remove-matcher]') ?? [];
    const next = buttons[Math.min(removedAt.current, buttons.length - 1)];
    removedAt.current = null;
    (next && !next.disabled ? next : addButton.current)?.focus();
  }, [fields.length]);
  const matchers = useWatch({ control, name: 'matchers' }) ?? [];
  const allMatchEmpty =
    matchers.length > 0 &&
    matchers.every((m) => MATCHER_OPS.includes(m.op) && matchesEmptyString(m as Matcher) === true);
  // The rule across rows is checked as you type, but said only once the matchers are touched or submitted.
  const listError = useShownError(
    control,
    'matchers',
    errors.matchers?.root?.message ?? errors.matchers?.message ?? (allMatchEmpty ? EMPTY_MATCH_MESSAGE : undefined),
  );

  return (
    <fieldset className="space-y-2" aria-describedby="matchers-rule matchers-error">
      <legend className="text-sm font-medium text-slate-800">Matchers</legend>
      <p id="matchers-rule" className={`text-xs ${listError ? 'font-medium text-amber-800' : 'text-slate-500'}`}>
        Regular expressions are RE2 and match the whole label value. At least one matcher must not match the empty
        string.
      </p>
      <ul ref={list} className="space-y-3">
        {fields.map((field, index) => {
          const rowErrors = errors.matchers?.[index];
          const id = `matcher-${index}`;
          return (
            <li
              key={field.id}
              className="grid grid-cols-2 items-start gap-2 sm:grid-cols-[1fr_8.5rem_1.4fr_auto]"
              data-testid={id}
            >
              <div className="space-y-1">
                <label htmlFor={`${id}-label`} className="block text-xs font-medium text-slate-700">
                  Label
                </label>
                <Input
                  id={`${id}-label`}
                  readOnly={readOnly}
                  disabled={readOnly}
                  invalid={!!rowErrors?.label}
                  aria-describedby={`${id}-label-error`}
                  {...register(`matchers.${index}.label`)}
                />
                <FieldError compact id={`${id}-label-error`} message={rowErrors?.label?.message} />
              </div>
              <div className="text-xs [&_label]:text-xs">
                <Select
                  id={`${id}-op`}
                  label="Operator"
                  value={matchers[index]?.op}
                  options={OP_OPTIONS}
                  disabled={readOnly}
                  // setValue, not the field array's update: that remounts the row and drops focus.
                  onValueChange={(op) =>
                    setValue(`matchers.${index}.op`, op as Matcher['op'], { shouldDirty: true, shouldValidate: true })
                  }
                />
              </div>
              <div className="space-y-1">
                <label htmlFor={`${id}-value`} className="block text-xs font-medium text-slate-700">
                  Value
                </label>
                <Input
                  id={`${id}-value`}
                  readOnly={readOnly}
                  disabled={readOnly}
                  invalid={!!rowErrors?.value}
                  aria-describedby={`${id}-value-error`}
                  className="font-mono"
                  {...register(`matchers.${index}.value`)}
                />
                <FieldError compact id={`${id}-value-error`} message={rowErrors?.value?.message} />
              </div>
              {!readOnly && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-5"
                  data-remove-matcher=""
                  onClick={() => {
                    removedAt.current = index;
                    remove(index);
                  }}
                  disabled={fields.length === 1}
                  aria-label={`Remove matcher ${index + 1}`}
                >
                  Remove
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <FieldError id="matchers-error" message={listError} />
      {!readOnly && (
        <Button
          ref={addButton}
          variant="secondary"
          size="sm"
          onClick={() => append({ label: '', op: '=', value: '' })}
          disabled={fields.length >= MAX_MATCHERS}
        >
          Add matcher
        </Button>
      )}
    </fieldset>
  );
}
