'use client';

import { useState } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { RolesEditor, rolesIssues, type Binding } from './roles-editor';

/**
 * The server's issues about a form's roles, kept to show under their rows. `place` answers whether any issue was
 * left for a toast; `clear` goes with each submit and each close.
 */
export function useRolesIssues() {
  const [issues, setIssues] = useState<ReturnType<typeof rolesIssues> | null>(null);
  return {
    issues,
    clear: () => setIssues(null),
    place: (error: unknown) => {
      const placed = rolesIssues(error);
      setIssues(placed);
      return placed.leftOver;
    },
  };
}

/** The roles editor bound to a form's `policies` (Invite, New bot, Change roles), with the form's and the server's issues. */
export function RolesField<T extends FieldValues & { policies: Binding[] }>({
  control,
  orgId,
  idPrefix,
  issues,
}: {
  control: Control<T>;
  orgId: string;
  idPrefix: string;
  issues: ReturnType<typeof useRolesIssues>['issues'];
}) {
  // A generic form cannot name its `policies` path without a cast; T's bound makes it a Binding[].
  const { field, fieldState } = useController({ control, name: 'policies' as Path<T> });
  const error = fieldState.error as { message?: string; root?: { message?: string } } | undefined;
  return (
    <RolesEditor
      orgId={orgId}
      idPrefix={idPrefix}
      value={field.value as Binding[]}
      onChange={field.onChange}
      rowErrors={issues?.rows}
      listError={issues?.list ?? error?.message ?? error?.root?.message}
    />
  );
}
