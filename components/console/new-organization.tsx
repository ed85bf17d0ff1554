'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { TextField } from '@/components/ui/field';
import { useCreateOrganization } from '@/lib/orgs/queries';
import { createOrganizationBody } from '@/lib/orgs/schema';
import { runMutation } from './feedback';
import { FormDialog, useFormDialog } from './form-dialog';
import { placeServerIssues } from './form-issues';

type FormValues = z.infer<typeof createOrganizationBody>;

/**
 * "New organization" under the organization switcher, loaded when its button is approached (DialogOnDemand):
 * `POST /v1/organizations` makes the signed-in person its OrganizationAdmin; the console then goes to it. Keys and
 * OAuth tokens cannot do this, sessions only.
 */
export function NewOrganizationDialog({
  idSuffix,
  open,
  onOpenChange: setOpen,
}: {
  idSuffix: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const router = useRouter();
  const create = useCreateOrganization();
  const form = useForm<FormValues>({ resolver: zodResolver(createOrganizationBody), defaultValues: { name: '' } });
  const { errors, isSubmitting } = form.formState;
  const dialog = useFormDialog(form, { open, onOpenChange: setOpen });

  const onSubmit = form.handleSubmit(async ({ name }) => {
    const outcome = await runMutation(() => create.mutateAsync({ name }), {
      success: (org) => `Created ${org.name}; you are its administrator.`,
      failure: 'Could not create the organization',
      placeIssues: (error) => placeServerIssues(form.setError, error, ['name']),
    });
    if (!outcome.ok) return;
    dialog.close();
    router.push(`/orgs/${outcome.data.id}`);
  });

  return (
    <FormDialog
      {...dialog.props}
      title="New organization"
      description="You become its administrator. Invite people and make projects in it afterwards."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel="Create organization"
    >
      <TextField
        id={`new-org-name-${idSuffix}`}
        label="Name"
        error={errors.name?.message}
        autoFocus
        autoComplete="organization"
        {...form.register('name')}
      />
    </FormDialog>
  );
}
