'use client';

import { LocalDate } from '@/components/console/time';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { useConsoleUser } from '@/components/console/user-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmailText } from '@/components/ui/email-text';
import { Badge, EmptyState, PageHeader } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import {
  createScimToken,
  useLeaveOrganization,
  useMembers,
  useRemoveMember,
  useSetMemberPolicies,
} from '@/lib/members/queries';
import type { Member } from '@/lib/members/schema';
import { useOrganizations } from '@/lib/orgs/queries';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { PolicyBindings } from '@/components/console/policy-bindings';
import { useChangeRoles } from '@/components/console/change-roles';
import type { InvitationSent } from '@/lib/onboarding/queries';
import { PendingInvitations } from './pending-invitations';
import { whenOpened } from '@/components/ui/opened-once';

// The dialog and its form (zod, react-hook-form) load at the first sign of a person on the page, not with the list.
const InviteDialog = whenOpened(
  () => import('./invite-dialog'),
  (m) => m.InviteDialog,
  (props) => props.open,
  { early: true },
);

export function MembersView({ orgId }: { orgId: string }) {
  const me = useConsoleUser();
  const router = useRouter();
  const permissions = usePermissions(orgId);
  const canList = hasGrant(permissions.data, 'members.list') === true;
  const canRemove = hasGrant(permissions.data, 'members.delete') === true;
  const canUpdate = hasGrant(permissions.data, 'members.update') === true;
  const canInvite = hasGrant(permissions.data, 'members.invite') === true;
  const [inviting, setInviting] = useState(false);
  // An invitation's link, when the server has no email to send it by: shown once, then dropped.
  const [link, setLink] = useState<{ email: string; url: string; opener: HTMLElement | null } | null>(null);
  // Its dialog returns focus to what asked for the link: Invite, or that invitation's Resend.
  const showLink = (sent: InvitationSent, opener: HTMLElement | null) =>
    sent.url && setLink({ email: sent.invitation.email, url: sent.url, opener });
  const inviteButton = useRef<HTMLButtonElement>(null);
  const members = useMembers(orgId, canList);
  const org = useOrganizations().items.find((o) => o.id === orgId);
  const orgName = org?.name ?? 'this organization';
  const remove = useRemoveMember(orgId);
  const leave = useLeaveOrganization(orgId);
  const [toRemove, setToRemove] = useState<Member | null>(null);
  const setPolicies = useSetMemberPolicies(orgId);
  const roles = useChangeRoles({
    orgId,
    rows: members.items,
    idOf: (m) => m.userId,
    save: (m, policies) => setPolicies.mutateAsync({ userId: m.userId, policies }),
  });
  const [leaving, setLeaving] = useState(false);
  const [confirmScim, setConfirmScim] = useState(false);
  // The SCIM token exists in the console only here, until its dialog closes.
  const [scimToken, setScimToken] = useState<string | null>(null);
  // The token's dialog opens from the confirmation; closing it returns to this button.
  const scimButton = useRef<HTMLButtonElement>(null);

  const issueScimToken = async () => {
    const outcome = await runMutation(() => createScimToken(orgId), {
      success: 'Created a SCIM token; any earlier token stopped working.',
      failure: 'Could not create the SCIM token',
    });
    if (outcome.ok) setScimToken(outcome.data);
    return outcome.ok;
  };

  return (
    <>
      <PageHeader
        title="Members"
        description="People in this organization and their policies."
        actions={
          <>
            {canInvite && (
              <Button ref={inviteButton} onClick={() => setInviting(true)}>
                Invite
              </Button>
            )}
            {canRemove && (
              <Button ref={scimButton} variant="secondary" onClick={() => setConfirmScim(true)}>
                Create SCIM token
              </Button>
            )}
            <Button variant="secondary" onClick={() => setLeaving(true)}>
              Leave organization
            </Button>
          </>
        }
      />
      {/* The permissions say whether there is a list: while they load, or when they fail, that is the list's state. */}
      <ListStates list={permissions} loading="Loading members" columns={4}>
        {!canList ? (
          <EmptyState title="Only administrators see the member list">You can still leave the organization.</EmptyState>
        ) : (
          <ListStates list={members} loading="Loading members" columns={4} errorTitle="Could not load members">
            <DataTable
              caption="Members"
              columns={['Name', 'Email', 'Second factor', 'Policies', 'Joined', null]}
              minWidth="56rem"
              stacked
              footer={<LoadMore list={members} />}
            >
              {members.items.map((m) => (
                <tr key={m.userId}>
                  <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                    {m.name} {m.userId === me.id && <Badge>You</Badge>}{' '}
                    {m.status === 'suspended' && <Badge tone="red">Suspended</Badge>}
                  </th>
                  <td data-label="Email" className="px-4 py-3 text-slate-700">
                    <EmailText email={m.email} />
                  </td>
                  <td data-label="Second factor" className="px-4 py-3">
                    {m.twoFactorEnabled ? <Badge tone="green">On</Badge> : <Badge>None</Badge>}
                  </td>
                  <td data-label="Policies" className="px-4 py-3 text-slate-700">
                    <PolicyBindings orgId={orgId} bindings={m.policies} />
                  </td>
                  <td data-label="Joined" className="whitespace-nowrap px-4 py-3 text-slate-700">
                    <LocalDate iso={m.joinedAt} />
                  </td>
                  <ActionsCell>
                    {canUpdate && roles.button(m)}
                    {canRemove && m.userId !== me.id && (
                      <RowAction label="Remove" name={`Remove ${m.name}`} onClick={() => setToRemove(m)} />
                    )}
                  </ActionsCell>
                </tr>
              ))}
            </DataTable>
          </ListStates>
        )}
      </ListStates>

      {canInvite && <PendingInvitations orgId={orgId} onSent={showLink} />}
      <InviteDialog
        orgId={orgId}
        open={inviting}
        onOpenChange={setInviting}
        onSent={(sent) => showLink(sent, inviteButton.current)}
      />
      <SecretRevealDialog
        title={`Invitation link for ${link?.email ?? ''}`}
        label="Invitation link"
        description="No email was sent: pass on this link, shown once."
        advice={`It works once, for 7 days, and only for ${link?.email ?? 'the invited address'}. Send it to them yourself; Resend makes a new one if it is lost.`}
        secret={link?.url ?? null}
        onClose={() => setLink(null)}
        returnFocus={() => link?.opener}
      />
      {roles.dialog}
      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => !open && setToRemove(null)}
        title={`Remove ${toRemove?.name ?? ''} from ${orgName}?`}
        description={
          <>
            <p>Their policies in this organization are removed.</p>
            <p className="font-medium text-slate-800">
              Every API key they own in this organization is revoked immediately.
            </p>
          </>
        }
        confirmLabel="Remove member"
        removesOpener
        onConfirm={async () => {
          if (!toRemove) return false;
          const { userId, name } = toRemove;
          const outcome = await runMutation(() => remove.mutateAsync(userId), {
            success: `Removed ${name}; their API keys here are revoked.`,
            failure: `Could not remove ${name}`,
          });
          return outcome.ok;
        }}
      />
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title={`Leave ${orgName}?`}
        description={
          <>
            <p>You lose access to this organization until someone adds you again.</p>
            <p className="font-medium text-slate-800">
              Every API key you own in this organization is revoked immediately.
            </p>
          </>
        }
        confirmLabel="Leave organization"
        onConfirm={async () => {
          const outcome = await runMutation(() => leave.mutateAsync(), {
            success: `You left ${orgName}.`,
            failure: `Could not leave ${orgName}`,
          });
          if (outcome.ok) router.replace('/orgs');
          return outcome.ok;
        }}
      />
      <ConfirmDialog
        open={confirmScim}
        onOpenChange={setConfirmScim}
        tone="primary"
        title="Create a SCIM token?"
        description={
          <>
            <p>Your identity provider uses it to read members and to suspend them at /scim/v2/Users.</p>
            <p className="font-medium text-slate-800">
              A suspended member’s API keys are all revoked. Any earlier SCIM token stops working.
            </p>
          </>
        }
        confirmLabel="Create token"
        onConfirm={issueScimToken}
      />
      <SecretRevealDialog
        title="Your SCIM token"
        label="SCIM bearer token"
        secret={scimToken}
        onClose={() => setScimToken(null)}
        returnFocus={() => scimButton.current}
      />
    </>
  );
}
