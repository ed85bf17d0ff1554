'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useDiscardGuard } from '@/components/console/discard-guard';
import { runMutation } from '@/components/console/feedback';
import { placeCodeOnField, placeServerIssues } from '@/components/console/form-issues';
import { RolesField, useRolesIssues } from '@/components/console/roles-field';
import { Dialog, FormFooter } from '@/components/ui/dialog';
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
  const router = useRouter();
  const create = useCreateBot(orgId);
  const roles = useRolesIssues();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues>({ resolver: zodResolver(createBotBody), defaultValues: DEFAULTS });
  const close = () => {
    reset(DEFAULTS);
    roles.clear();
    onOpenChange(false);
  };
  const guard = useDiscardGuard(isDirty, close);

  const onSubmit = handleSubmit(async (values) => {
    roles.clear();
    const outcome = await runMutation(() => create.mutateAsync(values), {
      success: (bot) => `Created the bot ${bot.name}. Make its API keys on the API keys page, with it as their owner.`,
      next: () => ({ label: 'Open API keys', onClick: () => router.push(`/orgs/${orgId}/api-keys`) }),
      failure: 'Could not create the bot',
      placeIssues: (error) => {
        if (placeCodeOnField(setError, error, { bot_name_taken: 'name' })) return false;
        return roles.place(error) && placeServerIssues(setError, error, ['name']);
      },
    });
    if (outcome.ok) close();
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : guard.requestClose())}
      title="New bot"
      description="A bot owns API keys for a tool or a pipeline, with roles of its own."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-2">
        <TextField
          id="bot-name"
          label="Name"
          hint="Unique among this organization's bots, at most 100 characters."
          error={errors.name?.message}
          autoFocus
          autoComplete="off"
          {...register('name')}
        />
        <RolesField control={control} orgId={orgId} idPrefix="bot-roles" issues={roles.issues} />
        {guard.prompt ?? <FormFooter onCancel={guard.requestClose} pending={isSubmitting} submitLabel="Create bot" />}
      </form>
    </Dialog>
  );
}
