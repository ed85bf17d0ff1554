import { Command } from 'commander';
import { formatInstant, table } from '../format';
import { ApiClient, ok } from '../http';
import { resolveOrganization, withOrgOptions, type OrgOptions } from '../orgs';
import { out, say } from '../output';
import { bindingsFromRoles, collect, matchOne, ROLE_HELP, rolesNamer, rolesSaid } from '../refs';

type RoleOptions = OrgOptions & { role?: string[] };

/** What the console's Invite preselects: BasicAccess in the whole organization. */
const DEFAULT_ROLE = 'BasicAccess';

function listInvitations(api: ApiClient, orgId: string) {
  return api.listAll((query) =>
    ok(api.v1.GET('/v1/organizations/{orgId}/invitations', { params: { path: { orgId }, query } })),
  );
}

function invitationsCommand(): Command {
  const invitations = new Command('invitations').description('Pending invitations: list, revoke');

  withOrgOptions(
    invitations.command('list', { isDefault: true }).description('List pending invitations, newest first'),
  ).action(async (options: OrgOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const list = await listInvitations(api, org.id);
    if (options.json) out(`${JSON.stringify(list, null, 2)}\n`);
    else if (list.length === 0) say(`No pending invitations in ${org.name}.`);
    else {
      const roles = await rolesNamer(
        api,
        org.id,
        list.map((i) => i.policies),
      );
      const rows = list.map((i) => [i.email, roles(i.policies), i.invitedBy.name, formatInstant(i.expiresAt), i.id]);
      out(table(['EMAIL', 'ROLES', 'INVITED BY', 'EXPIRES', 'ID'], rows));
    }
  });

  withOrgOptions(
    invitations
      .command('revoke')
      .description('Revoke a pending invitation: its link stops working')
      .argument('<id-or-email>', 'which invitation'),
  ).action(async (ref: string, options: OrgOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const pending = await listInvitations(api, org.id);
    const invitation = matchOne(pending, ref, 'pending invitation', (i) => i.email, org.name);
    await ok(
      api.v1.DELETE('/v1/organizations/{orgId}/invitations/{invitationId}', {
        params: { path: { orgId: org.id, invitationId: invitation.id } },
      }),
    );
    if (options.json) out(`${JSON.stringify(invitation, null, 2)}\n`);
    say(`Revoked the invitation of ${invitation.email} to ${org.name}; its link no longer works.`);
  });

  return invitations;
}

export function membersCommand(): Command {
  const members = new Command('members').description('People in an organization: invite them, change their roles');

  withOrgOptions(
    members
      .command('invite')
      .description('Invite someone by email; prints the link to pass on when the server does not email it')
      .argument('<email>', 'who to invite')
      .option('--role <POLICY[:project]>', `${ROLE_HELP} (default: ${DEFAULT_ROLE})`, collect),
  ).action(async (email: string, options: RoleOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const policies = await bindingsFromRoles(api, org, options.role?.length ? options.role : [DEFAULT_ROLE]);
    const issued = await ok(
      api.v1.POST('/v1/organizations/{orgId}/invitations', {
        params: { path: { orgId: org.id } },
        body: { email, policies },
      }),
    );
    const { invitation, url } = issued;
    if (options.json) out(`${JSON.stringify(issued, null, 2)}\n`);
    else out(`${url ?? invitation.id}\n`);
    say(
      `Invited ${invitation.email} to ${org.name} as ${await rolesSaid(api, org.id, invitation.policies)};` +
        ` the invitation expires ${formatInstant(invitation.expiresAt)}.`,
    );
    // Without SMTP the server hands the link to the inviter once; with it, the invitee already has it.
    say(url ? 'Send them this link; it is shown only once.' : `The link was emailed to ${invitation.email}.`);
  });

  members.addCommand(invitationsCommand());

  withOrgOptions(
    members
      .command('roles')
      .description('Replace a member’s roles with the --role ones')
      .argument('<email-or-id>', 'which member')
      .requiredOption('--role <POLICY[:project]>', ROLE_HELP, collect),
  ).action(async (ref: string, options: RoleOptions & { role: string[] }) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const all = await api.listAll((query) =>
      ok(api.v1.GET('/v1/organizations/{orgId}/members', { params: { path: { orgId: org.id }, query } })),
    );
    const member = matchOne(
      all.map((m) => ({ ...m, id: m.userId })),
      ref,
      'member',
      (m) => m.email,
      org.name,
    );
    const policies = await bindingsFromRoles(api, org, options.role);
    const updated = await ok(
      api.v1.PUT('/v1/organizations/{orgId}/members/{userId}/policies', {
        params: { path: { orgId: org.id, userId: member.userId } },
        body: { policies },
      }),
    );
    if (options.json) out(`${JSON.stringify(updated, null, 2)}\n`);
    say(`${updated.name} (${updated.email}) now has ${await rolesSaid(api, org.id, updated.policies)} in ${org.name}.`);
  });

  return members;
}
