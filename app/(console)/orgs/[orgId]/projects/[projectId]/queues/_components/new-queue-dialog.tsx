'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { runMutation } from '@/components/console/feedback';
import { FormDialog, useFormDialog } from '@/components/console/form-dialog';
import { placeCodeOnField, placeServerIssues } from '@/components/console/form-issues';
import { FieldError, TextField } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { useCreateQueue } from '@/lib/queues/queries';
import { createQueueBody, RETENTION_SECONDS } from '@/lib/queues/schema';
import { retentionWords } from './queue-words';
import { consolePlace, openPlace } from '@/components/console/console-place';

// The route's own body, the retention always chosen (from the choices below; the default is the API's).
const formSchema = createQueueBody.required();
type FormValues = z.infer<typeof formSchema>;
const FIELDS = ['name', 'retentionSeconds'] as const;

const HOUR = 3_600;
const DAY = 86_400;
const RETENTIONS = [HOUR, 12 * HOUR, DAY, RETENTION_SECONDS.default, 7 * DAY, RETENTION_SECONDS.max];

/** Name and retention; a name the project already has is said under Name. */
export function NewQueueDialog({
  orgId,
  projectId,
  open,
  onOpenChange,
}: {
  orgId: string;
  projectId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateQueue(orgId, projectId);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', retentionSeconds: RETENTION_SECONDS.default },
  });
  const { register, control, handleSubmit, setError } = form;
  const { errors, isSubmitting } = form.formState;
  const dialog = useFormDialog(form, { open, onOpenChange });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await runMutation(() => create.mutateAsync(values), {
      success: (queue) => `Created the queue ${queue.name}.`,
      next: (queue) => openPlace(consolePlace(orgId, { type: 'queue', id: queue.id, projectId })),
      failure: 'Could not create the queue',
      placeIssues: (error) =>
        !placeCodeOnField(setError, error, { queue_name_taken: 'name' }) && placeServerIssues(setError, error, FIELDS),
    });
    if (outcome.ok) dialog.close();
  });

  return (
    <FormDialog
      {...dialog.props}
      title="New queue"
      description="Publishers send messages to a queue; its subscriptions deliver them."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel="Create queue"
    >
      <TextField
        id="queue-name"
        label="Name"
        hint="Lowercase letters, digits and hyphens, starting with a letter; unique in this project."
        error={errors.name?.message}
        autoFocus
        autoComplete="off"
        spellCheck={false}
        {...register('name')}
      />
      <Controller
        control={control}
        name="retentionSeconds"
        render={({ field }) => (
          <div className="space-y-1 pb-2">
            <Select
              id="queue-retention"
              label="Retention"
              value={String(field.value)}
              options={RETENTIONS.map((s) => ({
                value: String(s),
                label: `${retentionWords(s)}${s === RETENTION_SECONDS.default ? ' (default)' : ''}`,
              }))}
              onValueChange={(v) => field.onChange(Number(v))}
              invalid={!!errors.retentionSeconds}
              describedBy="queue-retention-hint queue-retention-error"
            />
            <p id="queue-retention-hint" className="text-xs text-slate-500">
              How long a message waits for a subscription that has not taken it; then it expires.
            </p>
            <FieldError id="queue-retention-error" message={errors.retentionSeconds?.message} />
          </div>
        )}
      />
    </FormDialog>
  );
}
