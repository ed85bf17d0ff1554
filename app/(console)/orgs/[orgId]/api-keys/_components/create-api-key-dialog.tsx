'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { FieldError, TextField } from '@/components/ui/field';
import { runMutation } from '@/components/console/feedback';
import { placeServerIssues } from '@/components/console/form-issues';
import { ApiRequestError } from '@/lib/api-client';
import { Select } from '@/components/ui/select';
import { useCreateApiKey } from '@/lib/api-keys/queries';
import { createApiKeyBody, EXPIRY_CHOICES, type CreateApiKeyInput, type CreatedApiKey } from '@/lib/api-keys/schema';
import type { Bot } from '@/lib/bots/schema';

const ME = 'me';
const NEVER = 'never';
const FIELDS = ['name', 'expiresInDays', 'botId'] as const;

/** The create form: the route's own zod schema validates here too, and server issues land on their field. */
export function CreateApiKeyDialog({
  orgId,
  open,
  onOpenChange,
  bots,
  onCreated,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Bots the caller may create keys for (empty without bots.createApiKey). */
  bots: Bot[];
  onCreated: (created: CreatedApiKey) => void;
}) {
  const createApiKey = useCreateApiKey(orgId);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateApiKeyInput>({
    resolver: zodResolver(createApiKeyBody),
    defaultValues: { name: '', expiresInDays: 90 },
  });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await runMutation(() => createApiKey({ ...values, botId: values.botId || undefined }), {
      success: (created) => `Created “${created.apiKey.name}”. Copy the key now.`,
      failure: 'Could not create the key',
      placeIssues: (error) => {
        // The only 404 here is the chosen bot, deleted since the list loaded.
        if (!(error instanceof ApiRequestError) || error.status !== 404)
          return placeServerIssues(setError, error, FIELDS);
        setError('botId', { message: 'This bot no longer exists.' }, { shouldFocus: true });
        return false;
      },
    });
    if (!outcome.ok) return;
    reset();
    onCreated(outcome.data);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
      title="Create API key"
      description="A key acts as its owner, with exactly the owner's access."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-2">
        <TextField
          id="key-name"
          label="Name"
          hint="What uses this key, e.g. “CI deploys”."
          error={errors.name?.message}
          autoFocus
          autoComplete="off"
          {...register('name')}
        />
        <Controller
          control={control}
          name="expiresInDays"
          render={({ field }) => (
            <div className="space-y-1">
              <Select
                id="key-expiry"
                label="Expires"
                value={field.value === null || field.value === undefined ? NEVER : String(field.value)}
                options={EXPIRY_CHOICES.map((c) => ({
                  value: c.days === null ? NEVER : String(c.days),
                  label: c.label,
                }))}
                onValueChange={(v) => field.onChange(v === NEVER ? null : Number(v))}
                invalid={!!errors.expiresInDays}
                describedBy="key-expiry-error"
              />
              <FieldError id="key-expiry-error" message={errors.expiresInDays?.message} />
            </div>
          )}
        />
        <Controller
          control={control}
          name="botId"
          render={({ field }) => (
            <div className="space-y-1">
              <Select
                id="key-owner"
                label="Owner"
                value={field.value ?? ME}
                options={[{ value: ME, label: 'Me' }, ...bots.map((b) => ({ value: b.id, label: `${b.name} (bot)` }))]}
                onValueChange={(v) => field.onChange(v === ME ? undefined : v)}
                disabled={bots.length === 0}
                invalid={!!errors.botId}
                describedBy="key-owner-error"
              />
              <FieldError id="key-owner-error" message={errors.botId?.message} />
            </div>
          )}
        />
        <FormFooter
          onCancel={() => {
            reset();
            onOpenChange(false);
          }}
          pending={isSubmitting}
          submitLabel="Create key"
        />
      </form>
    </Dialog>
  );
}
