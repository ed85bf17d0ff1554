'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { memberPoliciesBody } from '@/lib/members/schema';
import { useDiscardGuard } from './discard-guard';
import { runMutation } from './feedback';
import { RolesEditor, rolesIssues, sortedBindings, type Binding } from './roles-editor';

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
  current,
  save,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Whose roles: "Ada Lovelace", "deploy-bot". */
  name: string;
  current: Binding[];
  save: (policies: Binding[]) => Promise<unknown>;
}) {
  const defaults: FormValues = { policies: sortedBindings(current) };
  const [issues, setIssues] = useState<ReturnType<typeof rolesIssues> | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    formState: { isSubmitting, isDirty, errors },
  } = useForm<FormValues>({ resolver: zodResolver(memberPoliciesBody), values: defaults });
  const close = () => {
    // The latest roles (`values` keeps them), not this render's: after a save the list has refreshed before this runs.
    reset();
    setIssues(null);
    onOpenChange(false);
  };
  const guard = useDiscardGuard(isDirty, close);

  const onSubmit = handleSubmit(async ({ policies }) => {
    setIssues(null);
    const outcome = await runMutation(() => save(policies), {
      success: `Changed the roles of ${name}.`,
      failure: `Could not change the roles of ${name}`,
      placeIssues: (error) => {
        const placed = rolesIssues(error);
        setIssues(placed);
        return placed.leftOver;
      },
    });
    if (outcome.ok) close();
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : guard.requestClose())}
      title={`Change roles of ${name}`}
      description="The new roles replace the old ones and hold on the next request of every key and session."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-2">
        <Controller
          control={control}
          name="policies"
          render={({ field }) => (
            <RolesEditor
              orgId={orgId}
              idPrefix="change-roles"
              value={field.value}
              onChange={field.onChange}
              rowErrors={issues?.rows}
              listError={issues?.list ?? errors.policies?.message ?? errors.policies?.root?.message}
            />
          )}
        />
        {guard.prompt ?? <FormFooter onCancel={guard.requestClose} pending={isSubmitting} submitLabel="Save roles" />}
      </form>
    </Dialog>
  );
}
