'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog, FormFooter } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/field';
import { useCreateOrganization } from '@/lib/orgs/queries';
import { createOrganizationBody } from '@/lib/orgs/schema';
import { useDiscardGuard } from './discard-guard';
import { runMutation } from './feedback';
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
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues>({ resolver: zodResolver(createOrganizationBody), defaultValues: { name: '' } });
  const close = () => {
    reset({ name: '' });
    setOpen(false);
  };
  const guard = useDiscardGuard(isDirty, close);

  const onSubmit = handleSubmit(async ({ name }) => {
    const outcome = await runMutation(() => create.mutateAsync({ name }), {
      success: (org) => `Created ${org.name}; you are its administrator.`,
      failure: 'Could not create the organization',
      placeIssues: (error) => placeServerIssues(setError, error, ['name']),
    });
    if (!outcome.ok) return;
    close();
    router.push(`/orgs/${outcome.data.id}`);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : guard.requestClose())}
      title="New organization"
      description="You become its administrator. Invite people and make projects in it afterwards."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-2">
        <TextField
          id={`new-org-name-${idSuffix}`}
          label="Name"
          error={errors.name?.message}
          autoFocus
          autoComplete="organization"
          {...register('name')}
        />
        {guard.prompt ?? (
          <FormFooter onCancel={guard.requestClose} pending={isSubmitting} submitLabel="Create organization" />
        )}
      </form>
    </Dialog>
  );
}
