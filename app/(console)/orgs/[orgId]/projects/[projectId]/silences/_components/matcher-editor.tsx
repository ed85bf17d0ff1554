'use client';

import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
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
  errors,
  readOnly,
}: {
  control: Control<SilenceFormValues>;
  register: UseFormRegister<SilenceFormValues>;
  errors: FieldErrors<SilenceFormValues>;
  readOnly: boolean;
}) {
  const { fields, append, remove, update } = useFieldArray({ control, name: 'matchers' });
  const matchers = useWatch({ control, name: 'matchers' }) ?? [];
  const allMatchEmpty =
    matchers.length > 0 &&
    matchers.every((m) => MATCHER_OPS.includes(m.op) && matchesEmptyString(m as Matcher) === true);
  const listError = errors.matchers?.root?.message ?? errors.matchers?.message;

  return (
    <fieldset className="space-y-2" aria-describedby="matchers-rule matchers-error">
      <legend className="text-sm font-medium text-slate-800">Matchers</legend>
      <p id="matchers-rule" className={`text-xs ${allMatchEmpty ? 'font-medium text-amber-800' : 'text-slate-500'}`}>
        Regular expressions are RE2 and match the whole label value. At least one matcher must not match the empty
        string.
      </p>
      <ul className="space-y-2">
        {fields.map((field, index) => {
          const rowErrors = errors.matchers?.[index];
          const id = `matcher-${index}`;
          return (
            <li key={field.id} className="grid grid-cols-[1fr_8.5rem_1.4fr_auto] items-start gap-2" data-testid={id}>
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
                <p
                  id={`${id}-label-error`}
                  className="min-h-4 text-xs text-red-700"
                  role={rowErrors?.label ? 'alert' : undefined}
                >
                  {rowErrors?.label?.message}
                </p>
              </div>
              <div className="text-xs [&_label]:text-xs">
                <Select
                  id={`${id}-op`}
                  label="Operator"
                  value={matchers[index]?.op}
                  options={OP_OPTIONS}
                  disabled={readOnly}
                  onValueChange={(op) => update(index, { ...matchers[index], op: op as Matcher['op'] })}
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
                <p
                  id={`${id}-value-error`}
                  className="min-h-4 text-xs text-red-700"
                  role={rowErrors?.value ? 'alert' : undefined}
                >
                  {rowErrors?.value?.message}
                </p>
              </div>
              {!readOnly && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="mt-5"
                  onClick={() => remove(index)}
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
      <p
        id="matchers-error"
        className="min-h-5 text-sm text-red-700"
        role={listError || allMatchEmpty ? 'alert' : undefined}
      >
        {listError ?? (allMatchEmpty ? EMPTY_MATCH_MESSAGE : '')}
      </p>
      {!readOnly && (
        <Button
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
