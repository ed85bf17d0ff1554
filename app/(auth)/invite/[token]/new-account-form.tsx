'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { apiFetch, ApiRequestError } from '@/lib/api-client';
import type { InvitationPreview } from '@/lib/onboarding/queries';
import { newPassword, personName } from '@/lib/onboarding/schema';
import { AccountFields } from '../../_components/account-fields';
import { useSignInOnce } from '../../_components/sign-in-once';

// The accept body's two fields, both needed when there is no account yet.
const formSchema = z.strictObject({ name: personName, password: newPassword });
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;

/** No account for the invited email yet: a name and a password make it, and it joins; then signed in, the organization. */
export function NewAccountForm({
  token,
  invitation,
  onRefused,
}: {
  token: string;
  invitation: InvitationPreview;
  onRefused: (error: unknown) => void;
}) {
  const signInOnce = useSignInOnce();
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(formSchema) });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await apiFetch(`/v1/invitations/${encodeURIComponent(token)}/accept`, { method: 'POST', body: values });
    } catch (error) {
      const issues = error instanceof ApiRequestError ? error.issues : [];
      const placed = issues.filter((i) => i.path === 'name' || i.path === 'password');
      placed.forEach((i, n) =>
        form.setError(i.path as 'name' | 'password', { message: i.message }, { shouldFocus: n === 0 }),
      );
      if (placed.length === 0) onRefused(error);
      return;
    }
    await signInOnce(
      { email: invitation.email, password: values.password },
      `/orgs/${invitation.organization.id}`,
      'joined',
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <p className="text-sm text-slate-600">Make your account for {invitation.email}:</p>
      <AccountFields idPrefix="invite" register={form.register} errors={errors} />
      <Button type="submit" pending={isSubmitting} className="w-full">
        Create account and join
      </Button>
    </form>
  );
}
