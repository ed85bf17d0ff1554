'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { runMutation, type ToastLink } from '@/components/console/feedback';
import { FormDialog, useFormDialog } from '@/components/console/form-dialog';
import { placeServerIssues } from '@/components/console/form-issues';
import { CheckboxField, FieldError, TextField } from '@/components/ui/field';
import { createWebhookBody, type Webhook } from '@/lib/webhooks/schema';
import { EventPicker } from './event-picker';
import { reauthenticationMessage } from '@/components/console/reauthentication';
import { useTargetHint } from '@/components/console/delivery-targets';

// The shared schema, except the URL: whether a loopback target is admitted is the server's setting, so the
// server's guard judges it and its issue lands on the field.
const formSchema = createWebhookBody.extend({
  url: z.string().trim().min(1, { error: 'Enter the URL to deliver to.' }),
  description: z.string().max(500, { error: 'The description must be at most 500 characters.' }),
  enabled: z.boolean(),
});
type FormValues = z.infer<typeof formSchema>;
const FIELDS = ['url', 'events', 'description', 'enabled'] as const;

/**
 * Adds an endpoint (`webhook` absent) or edits one. Creating needs sudo: a 403 `reauthentication_required`
 * is said in the dialog, which stays open with what was typed.
 */
export function WebhookFormDialog({
  open,
  onOpenChange,
  webhook,
  save,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  webhook?: Webhook;
  /** Sends only what the form changed; resolves with the toast's text. */
  /** Saves; answers the toast's text and, after an add, its link to the new webhook. */
  save: (values: Partial<FormValues>) => Promise<{ message: string; link?: ToastLink | null }>;
}) {
  const editing = !!webhook;
  const defaults: FormValues = {
    url: webhook?.url ?? '',
    events: webhook?.events ?? [],
    description: webhook?.description ?? '',
    enabled: webhook?.enabled ?? true,
  };
  const targetHint = useTargetHint();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), values: defaults });
  const { errors, isSubmitting, dirtyFields } = form.formState;
  const dialog = useFormDialog(form, { open, onOpenChange, onClose: () => setRefusal(null) });

  const onSubmit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const changed = editing
      ? (Object.fromEntries(
          FIELDS.filter((f) => dirtyFields[f] !== undefined).map((f) => [f, values[f]]),
        ) as Partial<FormValues>)
      : { url: values.url, events: values.events, ...(values.description ? { description: values.description } : {}) };
    if (editing && Object.keys(changed).length === 0) return dialog.close();
    const outcome = await runMutation(() => save(changed), {
      success: (saved) => saved.message,
      next: (saved) => saved.link,
      failure: editing ? 'Could not save the webhook' : 'Could not add the webhook',
      placeIssues: (error) => {
        const reauth = reauthenticationMessage(error, editing ? 'change this webhook' : 'add a webhook');
        if (reauth) {
          setRefusal(reauth);
          return false;
        }
        return placeServerIssues(form.setError, error, FIELDS, ['events']);
      },
    });
    if (outcome.ok) dialog.close();
  });

  return (
    <FormDialog
      {...dialog.props}
      title={editing ? 'Edit webhook' : 'Add webhook'}
      description="Every audit event matching the chosen events is POSTed to the URL, signed per Standard Webhooks."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel={editing ? 'Save' : 'Add webhook'}
    >
      <TextField
        id="webhook-url"
        label="URL"
        hint={`${targetHint}.`}
        error={errors.url?.message}
        autoFocus
        type="url"
        autoComplete="off"
        spellCheck={false}
        {...form.register('url')}
      />
      <TextField
        id="webhook-description"
        label="Description (optional)"
        error={errors.description?.message}
        autoComplete="off"
        {...form.register('description')}
      />
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => (
          <EventPicker
            value={field.value}
            onChange={field.onChange}
            invalid={!!errors.events}
            describedBy="webhook-events-error"
          />
        )}
      />
      <FieldError
        id="webhook-events-error"
        message={errors.events?.message ?? errors.events?.root?.message ?? errors.events?.[0]?.message}
      />
      {editing && (
        <CheckboxField id="webhook-enabled" label="Enabled (deliveries are sent)" {...form.register('enabled')} />
      )}
      {refusal && (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {refusal}
        </p>
      )}
    </FormDialog>
  );
}
