'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { memberPoliciesBody } from '@/lib/members/schema';
import { runMutation } from './feedback';
import { FormDialog, useFormDialog } from './form-dialog';
import { sortedBindings, type Binding } from './roles-editor';
import { RolesField, useRolesIssues } from './roles-field';
import { CopyId } from './copy-id';

// A member's and a bot's policies are the same body (`{policies}`), checked by the same rules.
type FormValues = z.infer<typeof memberPoliciesBody>;

/**
 * "Change roles" of a member or a bot: the whole list of bindings, replaced at once by a PUT (sudo). A binding the
 * caller may not give, or taking the last OrganizationAdmin away, is said under its row or in a toast.
 */
export function RolesDialog({
  orgId,
  open,
  onOpenChange,
  name,
  principalId,
  current,
  save,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Whose roles: "Ada Lovelace", "deploy-bot". */
  name: string;
  /** Their id, as the API and the CLI take it, shown with a copy button. */
  principalId?: string;
  current: Binding[];
  save: (policies: Binding[]) => Promise<unknown>;
}) {
  const defaults: FormValues = { policies: sortedBindings(current) };
  const roles = useRolesIssues();
  const form = useForm<FormValues>({ resolver: zodResolver(memberPoliciesBody), values: defaults });
  // Back to the latest roles (`values` keeps them), not this render's: after a save the list has refreshed first.
  const dialog = useFormDialog(form, { open, onOpenChange, onClose: roles.clear });

  const onSubmit = form.handleSubmit(async ({ policies }) => {
    roles.clear();
    const outcome = await runMutation(() => save(policies), {
      success: `Changed the roles of ${name}.`,
      failure: `Could not change the roles of ${name}`,
      placeIssues: roles.place,
    });
    if (outcome.ok) dialog.close();
  });

  return (
    <FormDialog
      {...dialog.props}
      title={`Change roles of ${name}`}
      description="The new roles replace the old ones and hold on the next request of every key and session."
      onSubmit={onSubmit}
      pending={form.formState.isSubmitting}
      submitLabel="Save roles"
    >
      {principalId && (
        <div className="mb-3">
          <CopyId id={principalId} what={name} />
        </div>
      )}
      <RolesField control={form.control} orgId={orgId} idPrefix="change-roles" issues={roles.issues} />
    </FormDialog>
  );
}
