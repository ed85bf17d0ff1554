'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { useFieldArray, useForm, type FieldPath, type UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import { runMutation } from '@/components/console/feedback';
import { FormDialog, useFormDialog } from '@/components/console/form-dialog';
import { Button } from '@/components/ui/button';
import { describedBy, Field, FieldError, Input } from '@/components/ui/field';
import { ApiRequestError } from '@/lib/api-client';
import { usePublishMessages } from '@/lib/queues/queries';
import type { Queue } from '@/lib/queues/schema';
import { attributeProblems, attributesOf, bodyProblem, MAX_ATTRIBUTES } from './message-draft';

const formSchema = z.object({
  body: z.string().superRefine((text, ctx) => {
    const problem = bodyProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  attributes: z.array(z.object({ name: z.string(), value: z.string() })).superRefine((rows, ctx) =>
    attributeProblems(rows).forEach((problems, i) => {
      for (const field of ['name', 'value'] as const)
        if (problems[field]) ctx.addIssue({ code: 'custom', path: [i, field], message: problems[field] });
    }),
  ),
});
type FormValues = z.infer<typeof formSchema>;

const EXAMPLE = '{\n  "hello": "world"\n}';

/**
 * The API's issues at their fields: `messages.0.body` at Body, `messages.0.attributes.NAME` at that row's value,
 * `messages.0.attributes` under the attributes. Answers whether any was left for the toast.
 */
function placePublishIssues(error: unknown, values: FormValues, setError: UseFormSetError<FormValues>): boolean {
  if (!(error instanceof ApiRequestError) || error.issues.length === 0) return true;
  let leftOver = false;
  let first = true;
  for (const issue of error.issues) {
    const [, , field, name] = issue.path.split('.');
    const row = name === undefined ? -1 : values.attributes.findIndex((r) => r.name === name);
    const at: FieldPath<FormValues> | null =
      field === 'body' ? 'body' : field === 'attributes' ? (row >= 0 ? `attributes.${row}.value` : 'attributes') : null;
    if (!issue.path.startsWith('messages.0.') || !at) {
      leftOver = true;
      continue;
    }
    setError(at, { type: 'server', message: issue.message }, { shouldFocus: first });
    first = false;
  }
  return leftOver;
}

/** A JSON editor checked as you type (nothing is sent while it is not JSON) and attributes as name/value rows. */
export function PublishDialog({
  orgId,
  projectId,
  queue,
  subscriptions,
  open,
  onOpenChange,
  onPublished,
}: {
  orgId: string;
  projectId: string;
  queue: Queue;
  /** How many subscriptions receive it: with none, the dialog says the message reaches no one. */
  subscriptions: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPublished: () => void;
}) {
  const publish = usePublishMessages(orgId, projectId, queue.id);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { body: EXAMPLE, attributes: [] },
    mode: 'onChange',
  });
  const { register, control, handleSubmit, setError, getValues } = form;
  const { errors, isSubmitting } = form.formState;
  const { fields, append, remove } = useFieldArray({ control, name: 'attributes' });
  // One Idempotency-Key per submission: the same request sent again (after a lost answer) reuses it.
  const attempt = useRef<{ key: string; request: string } | null>(null);
  const dialog = useFormDialog(form, { open, onOpenChange, onClose: () => (attempt.current = null) });

  // After a row is added focus goes to its name; after one is removed, to the Remove now in its place, else Add.
  const rows = useRef<HTMLUListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAfter = useRef<{ kind: 'added' } | { kind: 'removed'; index: number } | null>(null);
  useEffect(() => {
    const next = focusAfter.current;
    focusAfter.current = null;
    if (!next) return;
    if (next.kind === 'added') return void document.getElementById(`attribute-${fields.length - 1}-name`)?.focus();
    const buttons = rows.current?.querySelectorAll<HTMLButtonElement>('button[data-remove-attribute]') ?? [];
    (buttons[Math.min(next.index, buttons.length - 1)] ?? addButton.current)?.focus();
  }, [fields.length]);

  /** One Idempotency-Key per submission, kept while the same submission is retried. */
  const keyFor = (request: string) => {
    if (attempt.current?.request !== request) attempt.current = { key: crypto.randomUUID(), request };
    return attempt.current.key;
  };

  const send = async (values: FormValues) => {
    const attributes = attributesOf(values.attributes);
    const message = {
      body: JSON.parse(values.body) as unknown,
      ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    };
    const idempotencyKey = keyFor(JSON.stringify(message));
    const outcome = await runMutation(() => publish.mutateAsync({ body: { messages: [message] }, idempotencyKey }), {
      success: ({ messageIds }) => `Published message ${messageIds[0]} to ${queue.name}.`,
      failure: `Could not publish to ${queue.name}`,
      placeIssues: (error) => placePublishIssues(error, getValues(), setError),
    });
    if (!outcome.ok) return;
    onPublished();
    dialog.close();
  };

  const bodyError = errors.body?.message;
  const attributesError = errors.attributes?.root?.message ?? errors.attributes?.message;
  return (
    <FormDialog
      {...dialog.props}
      title={`Publish to ${queue.name}`}
      description={
        subscriptions === 0
          ? 'This queue has no subscription yet: a message published now is delivered to no one.'
          : subscriptions === 1
            ? 'One message, delivered to its subscription.'
            : `One message, delivered to each of its ${subscriptions} subscriptions.`
      }
      onSubmit={(event) => void handleSubmit(send)(event)}
      pending={isSubmitting}
      submitLabel="Publish"
    >
      <Field
        id="message-body"
        label="Body (JSON)"
        hint="Any JSON value: an object, an array, a string, a number, true, false or null. At most 128 KiB."
        error={bodyError}
      >
        <textarea
          {...describedBy('message-body', { hint: true, error: bodyError })}
          rows={8}
          autoFocus
          spellCheck={false}
          autoComplete="off"
          className={`block w-full rounded-md border-0 px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-inset focus:ring-2 focus:ring-inset ${
            bodyError ? 'ring-red-400 focus:ring-red-600' : 'ring-slate-300 focus:ring-indigo-600'
          }`}
          {...register('body')}
        />
      </Field>
      <fieldset className="space-y-2 pb-2" aria-describedby="attributes-hint attributes-error">
        <legend className="text-sm font-medium text-slate-800">Attributes</legend>
        <p id="attributes-hint" className="text-xs text-slate-500">
          Optional name/value strings delivered with the message, at most {MAX_ATTRIBUTES}.
        </p>
        <ul ref={rows} className="space-y-2">
          {fields.map((field, index) => {
            const id = `attribute-${index}`;
            const rowErrors = errors.attributes?.[index];
            return (
              // On a phone, name and value side by side and Remove under them; from 640 px all three in a row.
              <li
                key={field.id}
                className="grid grid-cols-2 items-start gap-x-2 sm:grid-cols-[1fr_1fr_auto]"
                data-testid={id}
              >
                <div className="min-w-0 space-y-1">
                  <label htmlFor={`${id}-name`} className="block text-xs font-medium text-slate-700">
                    Name {index + 1}
                  </label>
                  <Input
                    id={`${id}-name`}
                    invalid={!!rowErrors?.name}
                    aria-describedby={`${id}-name-error`}
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    {...register(`attributes.${index}.name`)}
                  />
                  <FieldError compact id={`${id}-name-error`} message={rowErrors?.name?.message} />
                </div>
                <div className="min-w-0 space-y-1">
                  <label htmlFor={`${id}-value`} className="block text-xs font-medium text-slate-700">
                    Value {index + 1}
                  </label>
                  <Input
                    id={`${id}-value`}
                    invalid={!!rowErrors?.value}
                    aria-describedby={`${id}-value-error`}
                    autoComplete="off"
                    {...register(`attributes.${index}.value`)}
                  />
                  <FieldError compact id={`${id}-value-error`} message={rowErrors?.value?.message} />
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  className="col-span-2 justify-self-start sm:col-span-1 sm:mt-5"
                  data-remove-attribute=""
                  aria-label={`Remove attribute ${index + 1}`}
                  onClick={() => {
                    focusAfter.current = { kind: 'removed', index };
                    remove(index);
                  }}
                >
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
        <FieldError id="attributes-error" message={attributesError} />
        <Button
          ref={addButton}
          variant="secondary"
          size="sm"
          disabled={fields.length >= MAX_ATTRIBUTES}
          onClick={() => {
            focusAfter.current = { kind: 'added' };
            append({ name: '', value: '' });
          }}
        >
          Add attribute
        </Button>
      </fieldset>
    </FormDialog>
  );
}
