'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { useDiscardGuard } from '@/components/console/discard-guard';
import { runMutation } from '@/components/console/feedback';
import { placeServerIssues } from '@/components/console/form-issues';
import { describedBy, Field } from '@/components/ui/field';
import { Badge, ErrorState, TableSkeleton } from '@/components/ui/states';
import { ApiRequestError } from '@/lib/api-client';
import {
  FIELDS_BY_STATE,
  updateSilenceBody,
  type Silence,
  type SilenceField,
  type UpdateSilenceBody,
} from '@/lib/silences/schema';
import { useCanUpdateSilences, useSilence, useUpdateSilence } from '@/lib/silences/queries';
import { MatcherEditor } from './matcher-editor';
import { localTime } from './format';
import { TimeField } from './time-field';

export type SilenceFormValues = z.input<typeof updateSilenceBody>;

const valuesOf = (s: Silence): SilenceFormValues => ({
  comment: s.comment,
  startsAt: s.startsAt,
  endsAt: s.endsAt,
  matchers: s.matchers.map((m) => ({ ...m })),
});

/** Only the fields the state accepts and the user changed: an active silence never receives its matchers back. */
function changedBody(silence: Silence, values: SilenceFormValues): UpdateSilenceBody {
  const body: UpdateSilenceBody = {};
  for (const field of FIELDS_BY_STATE[silence.state]) {
    const before = JSON.stringify(field === 'matchers' ? silence.matchers : silence[field]);
    if (JSON.stringify(values[field]) !== before) Object.assign(body, { [field]: values[field] });
  }
  return body;
}

const FORM_FIELDS = ['comment', 'startsAt', 'endsAt', 'matchers'] as const;

export function EditSilenceDialog({
  orgId,
  projectId,
  silenceId,
  onClose,
}: {
  orgId: string;
  projectId: string;
  silenceId: string;
  onClose: () => void;
}) {
  const loaded = useSilence(orgId, projectId, silenceId);
  const update = useUpdateSilence(orgId, projectId, silenceId);
  const canUpdate = useCanUpdateSilences(orgId, projectId);
  const [stale, setStale] = useState(false);
  const [forbidden, setForbidden] = useState(false);
  // One key per submission, reused when the same submission is retried after a failure.
  const attempt = useRef<{ signature: string; key: string } | null>(null);

  const form = useForm<SilenceFormValues, unknown, UpdateSilenceBody>({
    resolver: zodResolver(updateSilenceBody),
    mode: 'onChange',
  });
  const { register, control, handleSubmit, reset, setError, formState } = form;
  const silence = loaded.data?.silence;
  const etag = loaded.data?.etag;

  useEffect(() => {
    if (silence) reset(valuesOf(silence));
  }, [silence, reset]);

  const accepted: readonly SilenceField[] = silence ? FIELDS_BY_STATE[silence.state] : [];
  const readOnlyReason = !silence
    ? null
    : silence.state === 'expired'
      ? `This silence expired ${localTime(silence.endsAt)}; an expired silence cannot be changed.`
      : canUpdate === false || forbidden
        ? 'You can view this silence but not change it: that needs the obs.silences.update permission.'
        : null;
  const editable = (field: SilenceField) => !readOnlyReason && accepted.includes(field);
  const guard = useDiscardGuard(formState.isDirty && !readOnlyReason, onClose);

  const save = async (values: UpdateSilenceBody) => {
    if (!silence || !etag) return;
    const body = changedBody(silence, values);
    if (Object.keys(body).length === 0) return onClose();
    const signature = JSON.stringify([body, etag]);
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: crypto.randomUUID() };
    const { key } = attempt.current;
    const outcome = await runMutation(() => update.mutateAsync({ body, etag, idempotencyKey: key }), {
      success: `Saved ${silence.slug}.`,
      failure: 'Not saved: your changes are kept, and saving again retries the same request',
      placeIssues: (err) => {
        // A stale version gets its own panel with a way to reload; the rest are fields or a toast.
        if (err instanceof ApiRequestError && err.status === 412) return (setStale(true), false);
        if (err instanceof ApiRequestError && err.status === 403) setForbidden(true);
        return placeServerIssues(setError, err, FORM_FIELDS, ['matchers']);
      },
    });
    if (!outcome.ok) return;
    attempt.current = null;
    onClose();
  };

  const reload = async () => {
    setStale(false);
    await loaded.refetch();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && guard.requestClose()}
      title={silence?.state === 'expired' || readOnlyReason ? 'Silence' : 'Edit silence'}
      description={
        silence ? (
          <span className="inline-flex items-center gap-2">
            <span className="font-mono">{silence.slug}</span>
            <Badge tone={silence.state === 'active' ? 'green' : silence.state === 'scheduled' ? 'indigo' : 'slate'}>
              {silence.state}
            </Badge>
          </span>
        ) : undefined
      }
    >
      {loaded.isPending ? (
        <TableSkeleton rows={4} columns={1} label="Loading the silence" />
      ) : loaded.isError ? (
        <ErrorState message={loaded.error.message} onRetry={() => void loaded.refetch()} />
      ) : (
        <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate className="space-y-4">
          {readOnlyReason && (
            <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700" role="note">
              {readOnlyReason}
            </p>
          )}
          {!readOnlyReason && silence?.state === 'active' && (
            <p className="text-sm text-slate-600">This silence is active: only its end and comment can change.</p>
          )}
          {stale && (
            <div
              role="alert"
              className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              <p className="font-semibold">This silence changed since you opened it.</p>
              <p className="mt-1">
                Nothing was saved. Reload it to see the current version; your edits in this form will be replaced.
              </p>
              <Button variant="secondary" size="sm" className="mt-2" onClick={() => void reload()}>
                Reload the silence
              </Button>
            </div>
          )}

          <Controller
            control={control}
            name="startsAt"
            render={({ field, fieldState }) => (
              <TimeField
                id="silence-starts"
                label="Start"
                value={field.value ?? ''}
                onChange={field.onChange}
                error={fieldState.error?.message}
                readOnly={!editable('startsAt')}
              />
            )}
          />
          <Controller
            control={control}
            name="endsAt"
            render={({ field, fieldState }) => (
              <TimeField
                id="silence-ends"
                label="End"
                value={field.value ?? ''}
                onChange={field.onChange}
                error={fieldState.error?.message}
                readOnly={!editable('endsAt')}
                quickDurations
              />
            )}
          />
          <MatcherEditor
            control={control}
            register={register}
            setValue={form.setValue}
            errors={formState.errors}
            readOnly={!editable('matchers')}
          />
          <Field id="silence-comment" label="Comment" error={formState.errors.comment?.message}>
            <textarea
              {...describedBy('silence-comment', { error: formState.errors.comment })}
              {...register('comment')}
              rows={3}
              disabled={!editable('comment')}
              className="block w-full rounded-md px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 disabled:bg-slate-100 disabled:text-slate-500"
            />
          </Field>

          <DialogFooter>
            {guard.prompt ?? (
              <>
                <Button variant="secondary" onClick={guard.requestClose}>
                  {readOnlyReason ? 'Close' : 'Cancel'}
                </Button>
                {!readOnlyReason && (
                  <Button type="submit" pending={update.isPending} disabled={stale}>
                    Save changes
                  </Button>
                )}
              </>
            )}
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
