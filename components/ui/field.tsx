import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-800">
      {children}
    </label>
  );
}

/** The one way an error is shown next to what it is about; `compact` inside dense rows (matchers). */
export function FieldError({ id, message, compact = false }: { id: string; message?: string; compact?: boolean }) {
  // Always rendered so the layout does not jump when an error appears.
  return (
    <p
      id={id}
      role={message ? 'alert' : undefined}
      className={compact ? 'min-h-4 text-xs text-red-700' : 'min-h-5 text-sm text-red-700'}
    >
      {message ?? ''}
    </p>
  );
}

export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-xs text-slate-500">
      {children}
    </p>
  );
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean };

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(
  { invalid, className = '', ...props },
  ref,
) {
  return (
    <input
      ref={ref}
      aria-invalid={invalid || undefined}
      className={`block w-full rounded-md border-0 px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset disabled:bg-slate-100 disabled:text-slate-500 ${
        invalid ? 'ring-red-400 focus:ring-red-600' : 'ring-slate-300 focus:ring-indigo-600'
      } ${className}`}
      {...props}
    />
  );
});

/** Label, control, hint and error wired together with ids, so screen readers announce them. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && <FieldHint id={`${id}-hint`}>{hint}</FieldHint>}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * The usual text field: `Field` around an `Input`, with the ids, the invalid state and the descriptions wired from
 * `error` and `hint`. Every other prop (react-hook-form's `register(…)`, its ref too) goes to the input.
 */
export const TextField = forwardRef<
  HTMLInputElement,
  Omit<InputProps, 'id'> & { id: string; label: ReactNode; hint?: ReactNode; error?: string | null }
>(function TextField({ id, label, hint, error, ...input }, ref) {
  return (
    <Field id={id} label={label} hint={hint} error={error ?? undefined}>
      <Input ref={ref} invalid={!!error} {...describedBy(id, { hint, error })} {...input} />
    </Field>
  );
});

/** The aria attributes a control inside `Field` needs. */
export function describedBy(id: string, { hint, error }: { hint?: unknown; error?: unknown }) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' '),
  } as const;
}

/** A checkbox with its label beside it; every other prop (react-hook-form's `register(…)`, its ref too) goes to it. */
export const CheckboxField = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & { id: string; label: ReactNode }
>(function CheckboxField({ id, label, ...input }, ref) {
  return (
    <div className="flex items-center gap-2 pb-2">
      <input
        ref={ref}
        id={id}
        type="checkbox"
        className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        {...input}
      />
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
});
