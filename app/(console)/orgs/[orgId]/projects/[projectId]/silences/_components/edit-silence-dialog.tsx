'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { CopyId } from '@/components/console/copy-id';
import { useDiscardGuard } from '@/components/console/discard-guard';
import { runMutation } from '@/components/console/feedback';
import { placeServerIssues } from '@/components/console/form-issues';
import { describedBy, Field } from '@/components/ui/field';
import { Badge, ErrorState, TableSkeleton } from '@/components/ui/states';
import { ApiRequestError } from '@/lib/api-client';
import type { CodeAct } from '@/lib/console/code-samples';
import {
  createSilenceBody,
  FIELDS_BY_STATE,
  updateSilenceBody,
  type CreateSilenceBody,
  type Silence,
  type SilenceField,
  type UpdateSilenceBody,
} from '@/lib/silences/schema';
import {
  useCanCreateSilences,
  useCanUpdateSilences,
  useCreateSilence,
  useSilence,
  useUpdateSilence,
} from '@/lib/silences/queries';
import { AffectedAlerts } from './affected-alerts';
import { MatcherEditor } from './matcher-editor';
import { endAfter, EndDuration, type Duration } from './end-duration';
import { ExpireSilenceButton } from './expire-silence-button';
import { localTime } from '@/lib/format/time';
import { SilenceCode } from './silence-code';
import { TimeField } from './time-field';
import { consolePlace, openPlace } from '@/components/console/console-place';

/** What the dialog shows: an existing silence, or a new one (blank, or recreated from an expired one). */
export type SilenceDialogTarget =
  { kind: 'edit'; silenceId: string } | { kind: 'new'; from?: Pick<Silence, 'comment' | 'matchers'> };

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
const ALL_FIELDS: readonly SilenceField[] = ['comment', 'endsAt', 'matchers', 'startsAt'];

function newValues(from: Extract<SilenceDialogTarget, { kind: 'new' }>['from']): SilenceFormValues {
  const startsAt = new Date().toISOString();
  return {
    comment: from?.comment ?? '',
    startsAt,
    endsAt: endAfter('1h', startsAt),
    matchers: from ? from.matchers.map((m) => ({ ...m })) : [{ label: '', op: '=', value: '' }],
  };
}

/** The create's body: a start that is not in the future is left out, so the silence starts when it is saved. */
function createBody(values: UpdateSilenceBody, duration: Duration): CreateSilenceBody {
  const startsAt = values.startsAt && Date.parse(values.startsAt) > Date.now() ? values.startsAt : undefined;
  const endsAt = duration === 'custom' ? values.endsAt! : endAfter(duration, startsAt ?? '');
  return { comment: values.comment!, matchers: values.matchers!, endsAt, ...(startsAt ? { startsAt } : {}) };
}

/** One editor for a new silence and an existing one; an existing one can also be expired or recreated here. */
export function SilenceDialog({
  orgId,
  projectId,
  target,
  onClose,
  onSaved,
  onRecreate,
  updateAct,
}: {
  orgId: string;
  projectId: string;
  target: SilenceDialogTarget;
  /** Changing a silence as the registry declares it: an existing one shows it under "Use from code". */
  updateAct?: CodeAct;
  onClose: () => void;
  /** A silence created or expired here, to announce it and show its tab. */
  onSaved: (silence: Silence, verb: 'Created' | 'Expired') => void;
  onRecreate: (from: Silence) => void;
}) {
  const isNew = target.kind === 'new';
  const silenceId = target.kind === 'edit' ? target.silenceId : null;
  const loaded = useSilence(orgId, projectId, silenceId);
  const update = useUpdateSilence(orgId, projectId, silenceId ?? '');
  const create = useCreateSilence(orgId, projectId);
  const canUpdate = useCanUpdateSilences(orgId, projectId);
  const canCreate = useCanCreateSilences(orgId, projectId);
  const [duration, setDuration] = useState<Duration>('1h');
  const [stale, setStale] = useState(false);
  const [forbidden, setForbidden] = useState(false);
  // One key per submission, reused when the same submission is retried after a failure.
  const attempt = useRef<{ signature: string; key: string } | null>(null);

  const form = useForm<SilenceFormValues, unknown, UpdateSilenceBody>({
    // The create's schema is the update's fields made required; its output is a valid update body too.
    resolver: zodResolver((isNew ? createSilenceBody : updateSilenceBody) as typeof updateSilenceBody),
    mode: 'onChange',
    defaultValues: isNew ? newValues(target.from) : undefined,
  });
  const { register, control, handleSubmit, reset, setError, setValue, formState } = form;
  const silence = loaded.data?.silence;
  const etag = loaded.data?.etag;
  const startsAt = useWatch({ control, name: 'startsAt' });

  useEffect(() => {
    if (silence) reset(valuesOf(silence));
  }, [silence, reset]);

  // A chosen duration keeps the end that far after the start while the start moves.
  useEffect(() => {
    if (isNew && duration !== 'custom' && startsAt !== undefined)
      setValue('endsAt', endAfter(duration, startsAt), { shouldValidate: formState.isSubmitted });
  }, [isNew, duration, startsAt, setValue, formState.isSubmitted]);

  const accepted: readonly SilenceField[] = isNew ? ALL_FIELDS : silence ? FIELDS_BY_STATE[silence.state] : [];
  const readOnlyReason = isNew
    ? canCreate === false || forbidden
      ? 'You cannot create silences here: that needs the obs.silences.create permission.'
      : null
    : !silence
      ? null
      : silence.state === 'expired'
        ? `This silence expired ${localTime(silence.endsAt)}; an expired silence cannot be changed.`
        : canUpdate === false || forbidden
          ? 'You can view this silence but not change it: that needs the obs.silences.update permission.'
          : null;
  const editable = (field: SilenceField) => !readOnlyReason && accepted.includes(field);
  const guard = useDiscardGuard(formState.isDirty && !readOnlyReason, onClose);

  /** One Idempotency-Key per submission, kept while the same submission is retried. */
  const keyFor = (signature: string) => {
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: crypto.randomUUID() };
    return attempt.current.key;
  };

  // A stale version gets its own panel with a way to reload, a 403 makes the form read-only, the rest go to
  // their fields or a toast.
  const placeIssues = (err: unknown) => {
    if (err instanceof ApiRequestError && err.status === 412) return (setStale(true), false);
    if (err instanceof ApiRequestError && err.status === 403) setForbidden(true);
    return placeServerIssues(setError, err, FORM_FIELDS, ['matchers']);
  };

  const save = async (values: UpdateSilenceBody) => {
    if (isNew) {
      const body = createBody(values, duration);
      const key = keyFor(JSON.stringify(body));
      const outcome = await runMutation(() => create.mutateAsync({ body, idempotencyKey: key }), {
        success: (created) => `Created silence ${created.slug}: it is ${created.state}.`,
        next: (created) => openPlace(consolePlace(orgId, { type: 'silence', id: created.id, projectId })),
        failure: 'Not created: your entries are kept, and creating again retries the same request',
        placeIssues,
      });
      if (!outcome.ok) return;
      attempt.current = null;
      return onSaved(outcome.data, 'Created');
    }
    if (!silence || !etag) return;
    const body = changedBody(silence, values);
    if (Object.keys(body).length === 0) return onClose();
    const key = keyFor(JSON.stringify([body, etag]));
    const outcome = await runMutation(() => update.mutateAsync({ body, etag, idempotencyKey: key }), {
      success: `Saved ${silence.slug}.`,
      failure: 'Not saved: your changes are kept, and saving again retries the same request',
      placeIssues,
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
      title={isNew ? 'New silence' : silence?.state === 'expired' || readOnlyReason ? 'Silence' : 'Edit silence'}
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
      {!isNew && loaded.isPending ? (
        <TableSkeleton rows={4} columns={1} label="Loading the silence" />
      ) : !isNew && loaded.isError ? (
        <ErrorState message={loaded.error.message} onRetry={() => void loaded.refetch()} />
      ) : (
        <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate className="space-y-4">
          {/* What /v1, the CLI and amtool take: the slug above is only its label. */}
          {silence && <CopyId id={silence.id} what={`silence ${silence.slug}`} />}
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
            render={({ field, fieldState }) =>
              isNew ? (
                <EndDuration
                  duration={duration}
                  onDurationChange={setDuration}
                  endsAt={field.value ?? ''}
                  onEndsAtChange={field.onChange}
                  error={fieldState.error?.message}
                />
              ) : (
                <TimeField
                  id="silence-ends"
                  label="End"
                  value={field.value ?? ''}
                  onChange={field.onChange}
                  error={fieldState.error?.message}
                  readOnly={!editable('endsAt')}
                  quickDurations
                />
              )
            }
          />
          <MatcherEditor
            control={control}
            register={register}
            setValue={form.setValue}
            errors={formState.errors}
            readOnly={!editable('matchers')}
          />
          <AffectedAlerts orgId={orgId} projectId={projectId} control={control} />
          <Field id="silence-comment" label="Comment" error={formState.errors.comment?.message}>
            <textarea
              {...describedBy('silence-comment', { error: formState.errors.comment })}
              {...register('comment')}
              rows={3}
              disabled={!editable('comment')}
              className="block w-full rounded-md px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 disabled:bg-slate-100 disabled:text-slate-500"
            />
          </Field>
          {silence && etag && updateAct && silence.state !== 'expired' && (
            <SilenceCode orgId={orgId} projectId={projectId} silence={silence} etag={etag} update={updateAct} />
          )}

          <DialogFooter>
            {guard.prompt ?? (
              <>
                {silence && etag && !readOnlyReason && silence.state !== 'expired' && (
                  <span className="mr-auto">
                    <ExpireSilenceButton
                      orgId={orgId}
                      projectId={projectId}
                      silence={silence}
                      etag={etag}
                      onStale={() => setStale(true)}
                      onExpired={(expired) => onSaved(expired, 'Expired')}
                    />
                  </span>
                )}
                {silence?.state === 'expired' && canCreate && (
                  <Button variant="secondary" className="mr-auto" onClick={() => onRecreate(silence)}>
                    Recreate
                  </Button>
                )}
                <Button variant="secondary" onClick={guard.requestClose}>
                  {readOnlyReason ? 'Close' : 'Cancel'}
                </Button>
                {!readOnlyReason && (
                  <Button type="submit" pending={isNew ? create.isPending : update.isPending} disabled={stale}>
                    {isNew ? 'Create silence' : 'Save changes'}
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
