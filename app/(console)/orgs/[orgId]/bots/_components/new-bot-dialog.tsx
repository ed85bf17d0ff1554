'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { runMutation } from '@/components/console/feedback';
import { FormDialog, useFormDialog } from '@/components/console/form-dialog';
import { placeCodeOnField, placeServerIssues } from '@/components/console/form-issues';
import { RolesField, useRolesIssues } from '@/components/console/roles-field';
import { TextField } from '@/components/ui/field';
import { useCreateBot } from '@/lib/bots/queries';
import { createBotBody } from '@/lib/bots/schema';

type FormValues = z.infer<typeof createBotBody>;
const DEFAULTS: FormValues = { name: '', policies: [{ policy: 'BasicAccess', projectId: null }] };

/** "New bot" (sudo): a name and its roles. Its keys are made on the API keys page, as for any owner. */
export function NewBotDialog({
  orgId,
  open,
  onOpenChange,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateBot(orgId);
  const roles = useRolesIssues();
  const form = useForm<FormValues>({ resolver: zodResolver(createBotBody), defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;
  const dialog = useFormDialog(form, { open, onOpenChange, onClose: roles.clear });

  const onSubmit = form.handleSubmit(async (values) => {
    roles.clear();
    const outcome = await runMutation(() => create.mutateAsync(values), {
      success: (bot) => `Created the bot ${bot.name}. Make its API keys on the API keys page, with it as their owner.`,
      next: () => ({ label: 'Open API keys', href: `/orgs/${orgId}/api-keys` }),
      failure: 'Could not create the bot',
      placeIssues: (error) => {
        if (placeCodeOnField(form.setError, error, { bot_name_taken: 'name' })) return false;
        return roles.place(error) && placeServerIssues(form.setError, error, ['name']);
      },
    });
    if (outcome.ok) dialog.close();
  });

  return (
    <FormDialog
      {...dialog.props}
      title="New bot"
      description="A bot owns API keys for a tool or a pipeline, with roles of its own."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel="Create bot"
    >
      <TextField
        id="bot-name"
        label="Name"
        hint="Unique among this organization's bots, at most 100 characters."
        error={errors.name?.message}
        autoFocus
        autoComplete="off"
        {...form.register('name')}
      />
      <RolesField control={form.control} orgId={orgId} idPrefix="bot-roles" issues={roles.issues} />
    </FormDialog>
  );
}
