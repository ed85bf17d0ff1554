'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { apiFetch, ApiRequestError } from '@/lib/api-client';
import { setupBody } from '@/lib/onboarding/schema';
import { AccountFields } from '../_components/account-fields';
import { useSignInOnce } from '../_components/sign-in-once';
import { FormAlert } from '../login/form-alert';

// The route's own body without the token, which comes from the link rather than from a field.
const formSchema = setupBody.omit({ token: true });
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;
const FIELDS = ['name', 'email', 'password', 'organizationName'] as const;

/** `POST /v1/setup`: the user, the organization and their OrganizationAdmin binding at once; then signed in, its overview. */
export function SetupForm({ token }: { token: string }) {
  const signInOnce = useSignInOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(formSchema) });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    let organizationId: string;
    try {
      const { data } = await apiFetch<{ organization: { id: string } }>('/v1/setup', {
        method: 'POST',
        body: { token, ...values },
      });
      organizationId = data.organization.id;
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 404) {
        return setFormError('This setup link no longer works: the console is already set up. Sign in instead.');
      }
      const issues = error instanceof ApiRequestError ? error.issues : [];
      let first = true;
      for (const issue of issues.filter((i) => (FIELDS as readonly string[]).includes(i.path))) {
        form.setError(issue.path as (typeof FIELDS)[number], { message: issue.message }, { shouldFocus: first });
        first = false;
      }
      if (first) setFormError(error instanceof Error ? error.message : 'Something went wrong.');
      return;
    }
    await signInOnce(values, `/orgs/${organizationId}`, 'setup');
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FormAlert message={formError} />
      <AccountFields idPrefix="setup" register={form.register} errors={errors} askEmail autoFocus />
      <TextField
        id="setup-organization"
        label="Organization name"
        autoComplete="organization"
        error={errors.organizationName?.message}
        {...form.register('organizationName')}
      />
      <Button type="submit" pending={isSubmitting} className="w-full">
        Create administrator
      </Button>
    </form>
  );
}
