'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FieldError, TextField } from '@/components/ui/field';
import { runMutation } from '@/components/console/feedback';
import { FormDialog } from '@/components/console/form-dialog';
import { placeServerIssues } from '@/components/console/form-issues';
import { ApiRequestError } from '@/lib/api-client';
import { Select } from '@/components/ui/select';
import { useCreateApiKey } from '@/lib/api-keys/queries';
import { createApiKeyBody, EXPIRY_CHOICES, type CreateApiKeyInput, type CreatedApiKey } from '@/lib/api-keys/schema';
import type { Bot } from '@/lib/bots/schema';
import { usePermissions } from '@/lib/access/queries';
import { useProjects } from '@/lib/orgs/queries';
import { NarrowedKeyLimits } from './owner-doors';
import { AccessPicker, type Access, type AccessErrors } from './access-picker';
import type { KeyStart } from './key-start';

const ME = 'me';
const NEVER = 'never';
const FIELDS = ['name', 'expiresInDays', 'botId'] as const;
const NO_ACCESS: Access = { permissions: [], projectIds: [], allowedIps: [] };
const RESTRICTIONS = ['permissions', 'projectIds', 'allowedIps'] as const;

/** The body's restriction fields: nothing chosen on an axis is no restriction there. */
function restrictionBody(restricted: boolean, access: Access) {
  if (!restricted) return {};
  const ranges = access.allowedIps.map((r) => r.trim()).filter(Boolean);
  return {
    permissions: access.permissions.length ? (access.permissions as CreateApiKeyInput['permissions']) : null,
    projectIds: access.projectIds.length ? access.projectIds : null,
    allowedIps: ranges.length ? ranges : null,
  };
}

/** Server issues at `permissions.1`, `allowedIps.0`…, one sentence per axis naming the entry. */
function accessErrorsOf(error: unknown, sent: ReturnType<typeof restrictionBody>): AccessErrors {
  const out: AccessErrors = {};
  if (!(error instanceof ApiRequestError)) return out;
  for (const issue of error.issues) {
    const [field, index] = issue.path.split('.');
    const axis = RESTRICTIONS.find((f) => f === field);
    if (!axis || out[axis]) continue;
    const entry = index === undefined ? undefined : sent[axis]?.[Number(index)];
    out[axis] = entry ? `${entry}: ${issue.message}` : issue.message;
  }
  return out;
}

/** The create form: the route's own zod schema validates here too, and server issues land on their field. */
export function CreateApiKeyDialog({
  orgId,
  open,
  onOpenChange,
  bots,
  myAddress,
  onCreated,
  start = null,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Bots the caller may create keys for (empty without bots.createApiKey). */
  bots: Bot[];
  /** The caller's address as the server sees it, for "Add my address". */
  myAddress: string | null;
  onCreated: (created: CreatedApiKey) => void;
  /** Restricted from the first render to these (a link from "Use from code"); a later opening starts blank. */
  start?: KeyStart | null;
}) {
  const createApiKey = useCreateApiKey(orgId);
  const held = usePermissions(orgId);
  const projects = useProjects(orgId);
  const [restricted, setRestricted] = useState(start !== null);
  const [access, setAccess] = useState<Access>(start ? { ...start, allowedIps: [] } : NO_ACCESS);
  const [accessErrors, setAccessErrors] = useState<AccessErrors>({});
  const form = useForm<CreateApiKeyInput>({
    resolver: zodResolver(createApiKeyBody),
    defaultValues: { name: '', expiresInDays: 90 },
  });
  const { errors, isSubmitting } = form.formState;
  const clear = () => {
    form.reset();
    setRestricted(false);
    setAccess(NO_ACCESS);
    setAccessErrors({});
  };
  // Every way out clears the form at once: this dialog asks no discard question.
  const closing = {
    requestClose: () => {
      clear();
      onOpenChange(false);
    },
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const restrictions = restrictionBody(restricted, access);
    setAccessErrors({});
    const outcome = await runMutation(
      () => createApiKey({ ...values, botId: values.botId || undefined, ...restrictions }),
      {
        success: (created) => `Created “${created.apiKey.name}”. Copy the key now.`,
        failure: 'Could not create the key',
        placeIssues: (error) => {
          // The only 404 here is the chosen bot, deleted since the list loaded.
          if (!(error instanceof ApiRequestError) || error.status !== 404) {
            const onAccess = accessErrorsOf(error, restrictions);
            setAccessErrors(onAccess);
            // Issues on the access axes are shown there; anything else still reaches the toast.
            return placeServerIssues(form.setError, error, FIELDS) && Object.keys(onAccess).length === 0;
          }
          form.setError('botId', { message: 'This bot no longer exists.' }, { shouldFocus: true });
          return false;
        },
      },
    );
    if (!outcome.ok) return;
    clear();
    onCreated(outcome.data);
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      closing={closing}
      title="Create API key"
      description="A key acts as its owner, with the owner's access or, restricted, less of it."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel="Create key"
    >
      <TextField
        id="key-name"
        label="Name"
        hint="What uses this key, e.g. “CI deploys”."
        error={errors.name?.message}
        autoFocus
        autoComplete="off"
        {...form.register('name')}
      />
      <Controller
        control={form.control}
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
        control={form.control}
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
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Access</legend>
        <div className="flex flex-wrap gap-4">
          {[
            { id: 'access-full', label: 'Full access', on: false },
            { id: 'access-restricted', label: 'Restricted', on: true },
          ].map((choice) => (
            <div key={choice.id} className="flex items-center gap-2">
              <input
                id={choice.id}
                type="radio"
                name="access"
                className="size-4 border-slate-300 text-indigo-600 focus:ring-indigo-600"
                checked={restricted === choice.on}
                onChange={() => setRestricted(choice.on)}
              />
              <label htmlFor={choice.id} className="text-sm text-slate-800">
                {choice.label}
              </label>
            </div>
          ))}
        </div>
        {restricted && <NarrowedKeyLimits />}
        {restricted && (
          <AccessPicker
            value={access}
            onChange={setAccess}
            held={held.data}
            projects={projects.items}
            myAddress={myAddress}
            errors={accessErrors}
          />
        )}
      </fieldset>
    </FormDialog>
  );
}
