'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { runMutation } from '@/components/console/feedback';
import { FormDialog, useFormDialog } from '@/components/console/form-dialog';
import { placeCodeOnField, placeServerIssues } from '@/components/console/form-issues';
import { RolesField, useRolesIssues } from '@/components/console/roles-field';
import { TextField } from '@/components/ui/field';
import { createInvitationBody } from '@/lib/onboarding/invitation-schema';
import { useInvite, type InvitationSent } from '@/lib/onboarding/queries';

const formSchema = createInvitationBody;
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;
// PRODUCT.md: "The console's Invite preselects BasicAccess at organization scope."
const DEFAULTS: FormInput = { email: '', policies: [{ policy: 'BasicAccess', projectId: null }] };

/**
 * "Invite" (sudo): an email and roles by scope. With email set up on the server the link goes by mail; without
 * it the answer carries the link, which `onSent` shows once to pass on.
 */
export function InviteDialog({
  orgId,
  open,
  onOpenChange,
  onSent,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSent: (sent: InvitationSent) => void;
}) {
  const invite = useInvite(orgId);
  const roles = useRolesIssues();
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(formSchema), defaultValues: DEFAULTS });
  const { errors, isSubmitting } = form.formState;
  const dialog = useFormDialog(form, { open, onOpenChange, onClose: roles.clear });

  const onSubmit = form.handleSubmit(async (values) => {
    roles.clear();
    const outcome = await runMutation(() => invite.mutateAsync(values), {
      success: (sent) =>
        sent.url
          ? `Invited ${sent.invitation.email}. No email was sent: pass on the link shown now.`
          : `Emailed the invitation to ${sent.invitation.email}.`,
      failure: 'Could not send the invitation',
      placeIssues: (error) => {
        if (placeCodeOnField(form.setError, error, { already_member: 'email' })) return false;
        return roles.place(error) && placeServerIssues(form.setError, error, ['email']);
      },
    });
    if (!outcome.ok) return;
    dialog.close();
    onSent(outcome.data);
  });

  return (
    <FormDialog
      {...dialog.props}
      title="Invite a member"
      description="The link works once, for 7 days, for this email address only."
      onSubmit={onSubmit}
      pending={isSubmitting}
      submitLabel="Send invitation"
    >
      <TextField
        id="invite-email"
        label="Email"
        error={errors.email?.message}
        autoFocus
        type="email"
        autoComplete="off"
        spellCheck={false}
        {...form.register('email')}
      />
      <RolesField control={form.control} orgId={orgId} idPrefix="invite-roles" issues={roles.issues} />
    </FormDialog>
  );
}
