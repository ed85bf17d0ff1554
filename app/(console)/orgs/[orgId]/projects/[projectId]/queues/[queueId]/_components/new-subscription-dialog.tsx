'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { runMutation } from '@/components/console/feedback';
import { FormDialog, useFormDialog } from '@/components/console/form-dialog';
import { placeServerIssues } from '@/components/console/form-issues';
import { TextField } from '@/components/ui/field';
import type { Queue } from '@/lib/queues/schema';
import { useCreateSubscription } from '@/lib/subscriptions/queries';
import {
  backoffIssue,
  BATCH_SIZE,
  DEFAULT_RETRY_POLICY,
  DEFAULTS,
  MAX_ATTEMPTS,
  MAX_BACKOFF_SECONDS,
  MAX_CONCURRENCY,
  MIN_BACKOFF_SECONDS,
  retryPolicy,
  TIMEOUT_SECONDS,
  timeoutSeconds,
  updateSubscriptionBody,
  type CreatedSubscription,
} from '@/lib/subscriptions/schema';
import { consolePlace, openPlace } from '@/components/console/console-place';
import { useTargetHint } from '@/components/console/delivery-targets';

// The create's own rules, except the URL: whether a loopback target is admitted is the server's setting
// (WEBHOOK_ALLOW_LOOPBACK), so the server's guard judges it and its issue lands on the field.
const formSchema = z
  .object({
    target: z.object({
      url: z.string().trim().min(1, { error: 'Enter the URL to deliver to.' }),
      timeoutSeconds,
    }),
    batchSize: updateSubscriptionBody.shape.batchSize.unwrap(),
    maxConcurrency: updateSubscriptionBody.shape.maxConcurrency.unwrap(),
    retryPolicy,
  })
  .superRefine((values, ctx) => {
    const issue = backoffIssue(values.retryPolicy, values.retryPolicy);
    if (issue) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  });
type FormValues = z.infer<typeof formSchema>;

const FIELDS = [
  'target.url',
  'target.timeoutSeconds',
  'batchSize',
  'maxConcurrency',
  'retryPolicy.maxAttempts',
  'retryPolicy.minBackoffSeconds',
  'retryPolicy.maxBackoffSeconds',
] as const;
type NumberField = Exclude<(typeof FIELDS)[number], 'target.url'>;

const DEFAULT_VALUES: FormValues = {
  target: { url: '', timeoutSeconds: DEFAULTS.timeoutSeconds },
  batchSize: DEFAULTS.batchSize,
  maxConcurrency: DEFAULTS.maxConcurrency,
  retryPolicy: { ...DEFAULT_RETRY_POLICY },
};

/** A subscription of this queue to an https target; its signing secret comes back once, to `onCreated`. */
export function NewSubscriptionDialog({
  orgId,
  projectId,
  queue,
  open,
  onOpenChange,
  onCreated,
}: {
  orgId: string;
  projectId: string;
  queue: Queue;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (created: CreatedSubscription) => void;
}) {
  const create = useCreateSubscription(orgId, projectId);
  const targetHint = useTargetHint();
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: DEFAULT_VALUES });
  const { register, handleSubmit, reset, setError } = form;
  const { errors, isSubmitting } = form.formState;
  const dialog = useFormDialog(form, { open, onOpenChange });
  const errorOf = (name: (typeof FIELDS)[number]) =>
    name.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], errors) as
      { message?: string } | undefined;

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await runMutation(
      () =>
        create({
          queueId: queue.id,
          target: { kind: 'https', url: values.target.url, timeoutSeconds: values.target.timeoutSeconds },
          batchSize: values.batchSize,
          maxConcurrency: values.maxConcurrency,
          retryPolicy: values.retryPolicy,
        }),
      {
        success: (created) => `Created the subscription ${created.slug}. Copy its signing secret now.`,
        next: (created) => openPlace(consolePlace(orgId, { type: 'subscription', id: created.id, projectId })),
        failure: 'Could not create the subscription',
        placeIssues: (error) => placeServerIssues(setError, error, FIELDS),
      },
    );
    if (!outcome.ok) return;
    reset();
    onCreated(outcome.data);
  });

  const numberField = (name: NumberField, label: string, bounds: { min: number; max: number }, hint: string) => (
    <TextField
      id={`new-subscription-${name.replace('.', '-')}`}
      label={label}
      hint={hint}
      error={errorOf(name)?.message}
      type="number"
      inputMode="numeric"
      min={bounds.min}
      max={bounds.max}
      step={1}
      {...register(name, { valueAsNumber: true })}
    />
  );

  return (
    <FormDialog
      {...dialog.props}
      title={`New subscription to ${queue.name}`}
      description="Every message published to the queue from now on is delivered to this target, signed, in batches."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel="Create subscription"
    >
      <TextField
        id="new-subscription-target-url"
        label="Target URL"
        hint={`${targetHint}; it receives each batch as a POST.`}
        error={errorOf('target.url')?.message}
        type="url"
        autoFocus
        spellCheck={false}
        autoComplete="off"
        {...register('target.url')}
      />
      <div className="grid gap-x-4 sm:grid-cols-3">
        {numberField(
          'target.timeoutSeconds',
          'Timeout (seconds)',
          TIMEOUT_SECONDS,
          `${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max}.`,
        )}
        {numberField('batchSize', 'Batch size', BATCH_SIZE, `Messages per delivery, up to ${BATCH_SIZE.max}.`)}
        {numberField(
          'maxConcurrency',
          'Max concurrency',
          MAX_CONCURRENCY,
          `Deliveries at once, up to ${MAX_CONCURRENCY.max}.`,
        )}
      </div>
      <fieldset className="pb-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Retry policy</legend>
        <p className="mb-2 text-xs text-slate-500">
          A failed message waits twice as long after each attempt, from the minimum to the maximum backoff; after the
          last attempt it becomes a dead letter.
        </p>
        <div className="grid gap-x-4 sm:grid-cols-3">
          {numberField(
            'retryPolicy.maxAttempts',
            'Max attempts',
            MAX_ATTEMPTS,
            `${MAX_ATTEMPTS.min} to ${MAX_ATTEMPTS.max}.`,
          )}
          {numberField(
            'retryPolicy.minBackoffSeconds',
            'Min backoff (seconds)',
            MIN_BACKOFF_SECONDS,
            `${MIN_BACKOFF_SECONDS.min} to ${MIN_BACKOFF_SECONDS.max}.`,
          )}
          {numberField(
            'retryPolicy.maxBackoffSeconds',
            'Max backoff (seconds)',
            MAX_BACKOFF_SECONDS,
            `${MAX_BACKOFF_SECONDS.min} to ${MAX_BACKOFF_SECONDS.max}.`,
          )}
        </div>
      </fieldset>
    </FormDialog>
  );
}
