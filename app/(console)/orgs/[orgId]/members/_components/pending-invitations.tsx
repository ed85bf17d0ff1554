'use client';

import { useState } from 'react';
import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { PolicyBindings } from '@/components/console/policy-bindings';
import { LocalDate } from '@/components/console/time';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmailText } from '@/components/ui/email-text';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import {
  useInvitations,
  useResendInvitation,
  useRevokeInvitation,
  type Invitation,
  type InvitationSent,
} from '@/lib/onboarding/queries';

/**
 * Invitations not yet accepted: Resend (a new link; the old one dies) and Revoke. A link is shown once, when the
 * server answers with it (no email set up), through `onSent`; the list never holds links.
 */
export function PendingInvitations({
  orgId,
  onSent,
}: {
  orgId: string;
  onSent: (sent: InvitationSent, opener: HTMLElement | null) => void;
}) {
  const invitations = useInvitations(orgId);
  const resend = useResendInvitation(orgId);
  const revoke = useRevokeInvitation(orgId);
  const [toRevoke, setToRevoke] = useState<Invitation | null>(null);

  const resendTo = async (invitation: Invitation, button: HTMLElement) => {
    const outcome = await runMutation(() => resend.mutateAsync(invitation.id), {
      success: (sent) =>
        sent.url
          ? `Made a new link for ${invitation.email}; the old one no longer works. No email was sent: pass it on.`
          : `Emailed ${invitation.email} a new link; the old one no longer works.`,
      failure: `Could not resend the invitation to ${invitation.email}`,
    });
    if (outcome.ok) onSent(outcome.data, button);
  };

  return (
    <section aria-labelledby="invitations-title" className="mt-8">
      <h2 id="invitations-title" className="mb-3 text-base font-semibold text-slate-900">
        Pending invitations
      </h2>
      <ListStates
        list={invitations}
        loading="Loading invitations"
        columns={4}
        rows={1}
        errorTitle="Could not load invitations"
        empty={<p className="text-sm text-slate-600">No invitation is waiting to be accepted.</p>}
      >
        <DataTable
          caption="Pending invitations"
          columns={['Email', 'Roles', 'Invited by', 'Expires', null]}
          stacked
          footer={<LoadMore list={invitations} />}
        >
          {invitations.items.map((inv) => (
            <tr key={inv.id}>
              <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                <EmailText email={inv.email} />
              </th>
              <td data-label="Roles" className="px-4 py-3 text-slate-700">
                <PolicyBindings orgId={orgId} bindings={inv.policies} />
              </td>
              <td data-label="Invited by" className="px-4 py-3 text-slate-700">
                {inv.invitedBy.name}
              </td>
              <td data-label="Expires" className="whitespace-nowrap px-4 py-3 text-slate-700">
                <LocalDate iso={inv.expiresAt} />
              </td>
              <ActionsCell>
                <RowAction
                  label="Resend"
                  name={`Resend the invitation to ${inv.email}`}
                  disabled={resend.isPending && resend.variables === inv.id}
                  onClick={(e) => void resendTo(inv, e.currentTarget)}
                />
                <RowAction
                  label="Revoke"
                  name={`Revoke the invitation to ${inv.email}`}
                  onClick={() => setToRevoke(inv)}
                />
              </ActionsCell>
            </tr>
          ))}
        </DataTable>
      </ListStates>
      <ConfirmDialog
        open={toRevoke !== null}
        onOpenChange={(open) => !open && setToRevoke(null)}
        title={`Revoke the invitation to ${toRevoke?.email ?? ''}?`}
        description={<p>Its link stops working at once. You can invite them again later.</p>}
        confirmLabel="Revoke invitation"
        removesOpener
        onConfirm={async () => {
          if (!toRevoke) return false;
          const { id, email } = toRevoke;
          const outcome = await runMutation(() => revoke.mutateAsync(id), {
            success: `Revoked the invitation to ${email}.`,
            failure: `Could not revoke the invitation to ${email}`,
          });
          return outcome.ok;
        }}
      />
    </section>
  );
}
