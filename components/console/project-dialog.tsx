'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useDiscardGuard } from './discard-guard';
import { runMutation } from './feedback';
import { placeCodeOnField, placeServerIssues } from './form-issues';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { useCreateProject, useUpdateProject } from '@/lib/orgs/queries';
import { createProjectBody, type Project } from '@/lib/orgs/schema';

// The route's own body (a rename sends its name under the same rule); the form always has the checkbox's value.
const formSchema = createProjectBody.required();
type FormValues = z.infer<typeof formSchema>;
const FIELDS = ['name', 'alertingEnabled'] as const;

/**
 * Creates a project (`project` absent) or renames one. A name taken in the organization is said under Name. Opened
 * from Settings and from the project switcher, which then goes to the new project (`onCreated`).
 */
export function ProjectDialog({
  orgId,
  open,
  onOpenChange,
  project,
  idSuffix = '',
  onCreated,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project?: Project;
  /** Keeps the field ids apart where the dialog is mounted twice (the sidebar's switcher and the phone menu's). */
  idSuffix?: string;
  onCreated?: (project: Project) => void;
}) {
  const create = useCreateProject(orgId);
  const update = useUpdateProject(orgId);
  const defaults: FormValues = { name: project?.name ?? '', alertingEnabled: project?.alertingEnabled ?? false };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues>({ resolver: zodResolver(formSchema), values: defaults });
  const close = () => {
    // To the latest `values`, not this render's: a save refreshes the list before the dialog closes.
    reset();
    onOpenChange(false);
  };
  const guard = useDiscardGuard(isDirty, close);

  const onSubmit = handleSubmit(async (values) => {
    if (project && values.name === project.name) return close();
    const outcome = await runMutation(
      () =>
        project
          ? update.mutateAsync({ projectId: project.id, name: values.name })
          : create.mutateAsync({ name: values.name, alertingEnabled: values.alertingEnabled }),
      {
        success: (saved) =>
          project ? `Renamed ${project.name} to ${saved.name}.` : `Created the project ${saved.name}.`,
        failure: project ? `Could not rename ${project.name}` : 'Could not create the project',
        placeIssues: (error) =>
          !placeCodeOnField(setError, error, { project_name_taken: 'name' }) &&
          placeServerIssues(setError, error, FIELDS),
      },
    );
    if (!outcome.ok) return;
    close();
    if (!project) onCreated?.(outcome.data);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : guard.requestClose())}
      title={project ? `Rename ${project.name}` : 'New project'}
      description={project ? undefined : 'Subscriptions and silences live in a project. Projects are not deleted here.'}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-2">
        <TextField
          id={`project-name${idSuffix}`}
          label="Name"
          hint="Unique in this organization, at most 100 characters."
          error={errors.name?.message}
          autoFocus
          autoComplete="off"
          {...register('name')}
        />
        {!project && (
          <div className="flex items-center gap-2 pb-2">
            <input
              id={`project-alerting${idSuffix}`}
              type="checkbox"
              className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
              {...register('alertingEnabled')}
            />
            <label htmlFor={`project-alerting${idSuffix}`} className="text-sm text-slate-800">
              Alerting on (silences and alerts)
            </label>
          </div>
        )}
        {guard.prompt ?? (
          <FormFooter
            onCancel={guard.requestClose}
            pending={isSubmitting}
            submitLabel={project ? 'Save' : 'Create project'}
          />
        )}
      </form>
    </Dialog>
  );
}
