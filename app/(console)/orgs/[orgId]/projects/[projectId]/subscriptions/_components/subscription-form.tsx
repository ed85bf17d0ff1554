'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, type ReactNode } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { FormFooter } from '@/components/ui/dialog';
import { runMutation } from '@/components/console/feedback';
import { placeServerIssues } from '@/components/console/form-issues';
import { TextField } from '@/components/ui/field';
import { useUpdateSubscription } from '@/lib/subscriptions/queries';
import {
  BATCH_SIZE,
  MAX_CONCURRENCY,
  TIMEOUT_SECONDS,
  updateSubscriptionBody,
  type Subscription,
  type SubscriptionUpdate,
} from '@/lib/subscriptions/schema';
import { knownTarget } from '@/lib/subscriptions/known-target';
import { useLoopbackTargets, useTargetHint } from '@/components/console/delivery-targets';
import { targetUrlProblem } from '@/lib/delivery/address';

type FormInput = z.input<typeof updateSubscriptionBody>;
type FormOutput = z.output<typeof updateSubscriptionBody>;

const FIELDS = ['batchSize', 'maxConcurrency', 'target.url', 'target.timeoutSeconds'] as const;
type FieldName = (typeof FIELDS)[number];

function defaultsOf(sub: Subscription): FormInput {
  const target = knownTarget(sub.target);
  return {
    batchSize: sub.batchSize,
    maxConcurrency: sub.maxConcurrency,
    ...(target.kind === 'https'
      ? { target: { kind: 'https' as const, url: target.url, timeoutSeconds: target.timeoutSeconds } }
      : {}),
  };
}

/** Only what differs from the subscription as loaded: the API merges the rest. */
function changesOf(values: FormOutput, sub: Subscription): SubscriptionUpdate {
  const changes: SubscriptionUpdate = {};
  if (values.batchSize !== undefined && values.batchSize !== sub.batchSize) changes.batchSize = values.batchSize;
  if (values.maxConcurrency !== undefined && values.maxConcurrency !== sub.maxConcurrency)
    changes.maxConcurrency = values.maxConcurrency;
  const current = knownTarget(sub.target);
  if (values.target?.kind === 'https' && current.kind === 'https') {
    const target: { kind: 'https'; url?: string; timeoutSeconds?: number } = { kind: 'https' };
    if (values.target.url !== undefined && values.target.url !== current.url) target.url = values.target.url;
    if (values.target.timeoutSeconds !== undefined && values.target.timeoutSeconds !== current.timeoutSeconds) {
      target.timeoutSeconds = values.target.timeoutSeconds;
    }
    if (target.url !== undefined || target.timeoutSeconds !== undefined) changes.target = target;
  }
  return changes;
}

const bodyResolver = zodResolver(updateSubscriptionBody);

/**
 * The route's own rules, and where the server admits loopback targets (WEBHOOK_ALLOW_LOOPBACK) a loopback URL too,
 * which the shared schema cannot know in the browser.
 */
function resolverFor(loopback: boolean): Resolver<FormInput, unknown, FormOutput> {
  return async (values, context, options) => {
    const result = await bodyResolver(values, context, options);
    const url = values.target?.kind === 'https' ? values.target.url : undefined;
    const admitted = loopback && url !== undefined && targetUrlProblem(url, true) === null;
    if (!admitted || !result.errors.target) return result;
    const targetErrors = { ...(result.errors.target as Record<string, unknown>) };
    delete targetErrors.url;
    const errors = { ...result.errors, target: targetErrors } as typeof result.errors;
    if (Object.keys(targetErrors).length === 0) delete errors.target;
    return Object.keys(errors).length === 0 ? { values: values as FormOutput, errors: {} } : { values: {}, errors };
  };
}

export function SubscriptionForm({
  orgId,
  projectId,
  subscription: sub,
  onCancel,
  onDone,
  onDirtyChange,
  discardPrompt,
}: {
  orgId: string;
  projectId: string;
  subscription: Subscription;
  /** Cancel: asks first when there are unsaved changes (the dialog's discard guard). */
  onCancel: () => void;
  /** Saved, or nothing to save: closes at once. */
  onDone: () => void;
  onDirtyChange: (dirty: boolean) => void;
  discardPrompt: ReactNode;
}) {
  const update = useUpdateSubscription(orgId, projectId);
  const targetHint = useTargetHint();
  const loopback = useLoopbackTargets();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: resolverFor(loopback),
    defaultValues: defaultsOf(sub),
  });
  const target = knownTarget(sub.target);
  const errorOf = (name: FieldName) => form.getFieldState(name, form.formState).error?.message;
  const { isDirty } = form.formState;
  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const submit = form.handleSubmit(async (values) => {
    const changes = changesOf(values, sub);
    if (Object.keys(changes).length === 0) return onDone();
    const outcome = await runMutation(() => update.mutateAsync({ id: sub.id, changes }), {
      success: `Saved ${sub.slug}.`,
      failure: `Could not save ${sub.slug}`,
      placeIssues: (error) => placeServerIssues(form.setError, error, FIELDS),
    });
    if (outcome.ok) onDone();
  });

  const numberField = (
    name: 'batchSize' | 'maxConcurrency' | 'target.timeoutSeconds',
    label: string,
    bounds: { min: number; max: number },
    hint: string,
  ) => {
    const id = `subscription-${name.replace('.', '-')}`;
    const error = errorOf(name);
    return (
      <TextField
        id={id}
        label={label}
        hint={hint}
        error={error}
        type="number"
        inputMode="numeric"
        min={bounds.min}
        max={bounds.max}
        step={1}
        {...form.register(name, { valueAsNumber: true })}
      />
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-6 space-y-4 border-t border-slate-200 pt-4"
      aria-label={`Edit ${sub.slug}`}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {numberField(
          'batchSize',
          'Batch size',
          BATCH_SIZE,
          `Messages per delivery, ${BATCH_SIZE.min} to ${BATCH_SIZE.max}.`,
        )}
        {numberField(
          'maxConcurrency',
          'Max concurrency',
          MAX_CONCURRENCY,
          `Deliveries in flight, ${MAX_CONCURRENCY.min} to ${MAX_CONCURRENCY.max}.`,
        )}
      </div>
      {target.kind === 'https' && (
        <>
          <TextField
            id="subscription-target-url"
            label="Target URL"
            hint={`${targetHint}.`}
            error={errorOf('target.url')}
            type="url"
            spellCheck={false}
            autoComplete="off"
            {...form.register('target.url')}
          />
          <div className="sm:w-1/2 sm:pr-2">
            {numberField(
              'target.timeoutSeconds',
              'Timeout (seconds)',
              TIMEOUT_SECONDS,
              `${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max} seconds.`,
            )}
          </div>
        </>
      )}
      {target.kind === 'unknown' && (
        <p className="text-sm text-slate-600">
          This target&apos;s kind is unknown to the console; it is shown as unknown and left unchanged.
        </p>
      )}
      <FormFooter
        onCancel={onCancel}
        pending={form.formState.isSubmitting}
        submitLabel="Save changes"
        prompt={discardPrompt}
      />
    </form>
  );
}
