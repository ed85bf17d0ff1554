'use client';

import type { FieldErrors, FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { TextField } from '@/components/ui/field';

type AccountValues = { name: string; email: string; password: string };

/**
 * A new account's fields: Your name, Email (unless an invitation already says it) and Password. The setup form and
 * the invitation's new-account form both make one; `idPrefix` keeps their ids apart (`setup-name`, `invite-name`).
 */
export function AccountFields<T extends FieldValues & Pick<AccountValues, 'name' | 'password'>>({
  idPrefix,
  register,
  errors,
  askEmail = false,
  autoFocus = false,
}: {
  idPrefix: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  askEmail?: boolean;
  autoFocus?: boolean;
}) {
  // A generic form cannot name these paths without a cast; T's bound makes them its fields.
  const field = (name: keyof AccountValues) => register(name as Path<T>);
  const errorOf = (name: keyof AccountValues) => (errors as FieldErrors<AccountValues>)[name]?.message;
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Your name"
        error={errorOf('name')}
        autoComplete="name"
        autoFocus={autoFocus}
        {...field('name')}
      />
      {askEmail && (
        <TextField
          id={`${idPrefix}-email`}
          label="Email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          error={errorOf('email')}
          {...field('email')}
        />
      )}
      <TextField
        id={`${idPrefix}-password`}
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters."
        error={errorOf('password')}
        {...field('password')}
      />
    </>
  );
}
