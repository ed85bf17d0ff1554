'use client';

import { useState } from 'react';
import { RowAction } from '@/components/ui/data-table';
import type { Binding } from './roles-editor';
import { whenOpened } from '@/components/ui/opened-once';

// The dialog and its form (zod, react-hook-form) load at the first sign of a person on the page, not with the list.
const RolesDialog = whenOpened(
  () => import('./roles-dialog'),
  (m) => m.RolesDialog,
  (props) => props.open,
  { early: true },
);

/**
 * "Change roles" of a list's rows (members, bots): `button(row)` goes in a row's actions, `dialog` once beside the
 * list. The row stays chosen after its dialog closes, so the dialog can return focus to that row's button; the
 * dialog shows the row's roles as the list has them now (refreshed after a save).
 */
export function useChangeRoles<T extends { name: string; policies: Binding[] }>({
  orgId,
  rows,
  idOf,
  save,
}: {
  orgId: string;
  rows: T[];
  idOf: (row: T) => string;
  save: (row: T, policies: Binding[]) => Promise<unknown>;
}) {
  const [rolesOf, setRolesOf] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const button = (row: T) => (
    <RowAction
      label="Change roles"
      name={`Change roles of ${row.name}`}
      onClick={() => {
        setRolesOf(row);
        setOpen(true);
      }}
    />
  );
  const dialog = rolesOf && (
    <RolesDialog
      orgId={orgId}
      open={open}
      onOpenChange={setOpen}
      name={rolesOf.name}
      principalId={idOf(rolesOf)}
      current={rows.find((row) => idOf(row) === idOf(rolesOf))?.policies ?? rolesOf.policies}
      save={(policies) => save(rolesOf, policies)}
    />
  );
  return { button, dialog };
}
