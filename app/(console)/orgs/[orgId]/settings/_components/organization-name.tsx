'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { runMutation } from '@/components/console/feedback';
import { placeServerIssues } from '@/components/console/form-issues';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useUpdateOrganization } from '@/lib/orgs/queries';
import { createOrganizationBody } from '@/lib/orgs/schema';

// The same name rule as making an organization, which the route's own body applies to a rename.
type FormValues = { name: string };

/** Renames the organization (`PATCH /v1/organizations/{orgId}` with `name`, sudo); others read the name only. */
export function OrganizationName({
  orgId,
  name,
  canChange,
}: {
  orgId: string;
  name: string | undefined;
  canChange: boolean | undefined;
}) {
  const update = useUpdateOrganization(orgId);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues>({ resolver: zodResolver(createOrganizationBody), values: { name: name ?? '' } });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await runMutation(() => update.mutateAsync({ name: values.name }), {
      success: (saved) => `Renamed the organization to ${saved.name}.`,
      failure: 'Could not rename the organization',
      placeIssues: (error) => placeServerIssues(setError, error, ['name']),
    });
    if (outcome.ok) reset({ name: outcome.data.name });
  });

  return (
    <section aria-labelledby="org-name-title" className="mb-6 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="org-name-title" className="text-sm font-semibold text-slate-900">
        Organization name
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-2 flex max-w-xl flex-wrap items-start gap-2">
        <div className="min-w-0 flex-1 basis-56">
          <TextField
            id="organization-name"
            label="Name"
            hint={canChange === false ? 'Only an organization admin can rename it.' : 'At most 100 characters.'}
            error={errors.name?.message}
            disabled={canChange !== true || name === undefined}
            {...register('name')}
          />
        </div>
        <Button type="submit" className="sm:mt-6" pending={isSubmitting} disabled={canChange !== true || !isDirty}>
          Rename
        </Button>
      </form>
    </section>
  );
}
