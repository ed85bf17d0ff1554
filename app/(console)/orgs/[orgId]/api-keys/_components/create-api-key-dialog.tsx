'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { describedBy, Field, Input } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { ApiRequestError } from '@/lib/api-client';
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
    try {
      const created = await createApiKey({ ...values, botId: values.botId || undefined });
      reset();
      onCreated(created);
    } catch (err) {
      if (!(err instanceof ApiRequestError)) throw err;
      const onField = err.issues.filter((i) => (FIELDS as readonly string[]).includes(i.path));
      for (const issue of onField)
        setError(issue.path as (typeof FIELDS)[number], { message: issue.message }, { shouldFocus: true });
      if (err.status === 404) setError('botId', { message: 'This bot no longer exists.' }, { shouldFocus: true });
      else if (onField.length === 0) setError('root', { message: err.message });
    }
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
        {errors.root && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {errors.root.message}
          </p>
        )}
        <Field id="key-name" label="Name" hint="What uses this key, e.g. “CI deploys”." error={errors.name?.message}>
          <Input
            autoFocus
            autoComplete="off"
            invalid={!!errors.name}
            {...describedBy('key-name', { hint: true, error: errors.name })}
            {...register('name')}
          />
        </Field>
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
              <p
                id="key-expiry-error"
                role={errors.expiresInDays ? 'alert' : undefined}
                className="min-h-5 text-sm text-red-700"
              >
                {errors.expiresInDays?.message ?? ''}
              </p>
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
              <p
                id="key-owner-error"
                role={errors.botId ? 'alert' : undefined}
                className="min-h-5 text-sm text-red-700"
              >
                {errors.botId?.message ?? ''}
              </p>
            </div>
          )}
        />
        <div className="flex justify-end gap-3 pt-2">
          <Button
            variant="secondary"
            onClick={() => {
              reset();
              onOpenChange(false);
            }}
          >
            Cancel
          </Button>
          <Button type="submit" pending={isSubmitting}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
