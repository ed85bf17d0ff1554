'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { runMutation } from './feedback';
import { FormDialog, useFormDialog } from './form-dialog';
import { placeCodeOnField, placeServerIssues } from './form-issues';
import { CheckboxField, TextField } from '@/components/ui/field';
import { useRefreshPermissions } from '@/lib/access/queries';
import { useCreateProject, useUpdateProject } from '@/lib/orgs/queries';
import { createProjectBody, type Project } from '@/lib/orgs/schema';
import { consolePlace, openPlace } from './console-place';

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
  alertingOn = false,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project?: Project;
  /** Keeps the field ids apart where the dialog is mounted twice (the sidebar's switcher and the phone menu's). */
  idSuffix?: string;
  onCreated?: (project: Project) => void;
  /** A new project's alerting starts on (the guided start's step is a project with alerting). */
  alertingOn?: boolean;
}) {
  const create = useCreateProject(orgId);
  const update = useUpdateProject(orgId);
  const refreshPermissions = useRefreshPermissions(orgId);
  const defaults: FormValues = { name: project?.name ?? '', alertingEnabled: project?.alertingEnabled ?? alertingOn };
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), values: defaults });
  const { errors, isSubmitting } = form.formState;
  // Back to the latest `values`, not this render's: a save refreshes the list before the dialog closes.
  const dialog = useFormDialog(form, { open, onOpenChange });

  const onSubmit = form.handleSubmit(async (values) => {
    if (project && values.name === project.name) return dialog.close();
    const outcome = await runMutation(
      () =>
        project
          ? update.mutateAsync({ projectId: project.id, name: values.name })
          : create.mutateAsync({ name: values.name, alertingEnabled: values.alertingEnabled }),
      {
        success: (saved) =>
          project ? `Renamed ${project.name} to ${saved.name}.` : `Created the project ${saved.name}.`,
        next: (saved) => (project ? null : openPlace(consolePlace(orgId, { type: 'project', id: saved.id }))),
        failure: project ? `Could not rename ${project.name}` : 'Could not create the project',
        placeIssues: (error) =>
          !placeCodeOnField(form.setError, error, { project_name_taken: 'name' }) &&
          placeServerIssues(form.setError, error, FIELDS),
      },
    );
    if (!outcome.ok) return;
    dialog.close();
    if (project) return;
    // The caller's roles reach the new project: its pages offer what they allow there at once.
    void refreshPermissions();
    onCreated?.(outcome.data);
  });

  return (
    <FormDialog
      {...dialog.props}
      title={project ? `Rename ${project.name}` : 'New project'}
      description={project ? undefined : 'Subscriptions and silences live in a project. Projects are not deleted here.'}
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel={project ? 'Save' : 'Create project'}
    >
      <TextField
        id={`project-name${idSuffix}`}
        label="Name"
        hint="Unique in this organization, at most 100 characters."
        error={errors.name?.message}
        autoFocus
        autoComplete="off"
        {...form.register('name')}
      />
      {!project && (
        <CheckboxField
          id={`project-alerting${idSuffix}`}
          label="Alerting on (silences and alerts)"
          {...form.register('alertingEnabled')}
        />
      )}
    </FormDialog>
  );
}
