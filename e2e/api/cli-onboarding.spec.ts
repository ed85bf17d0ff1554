import type { APIRequestContext } from '@playwright/test';
import { expect, EMAILS, test } from '../fixtures';
import { login, newConfigDir, runCli, type CliResult } from '../support/cli';
import {
  freshEmail,
  joined,
  mailedLink,
  members,
  newOrg,
  orgScope,
  receiveInvitations,
  sessionFor,
  type Org,
} from '../support/onboarding';

// The real `svc` for onboarding, logged in as ada by approving its device code, acting in an organization
// of its own so the demo's stays as it was. Each command: its happy path, then a refusal that changes nothing.
// Each test runs the CLI several times, a Node process each: over 20 s beside the other suites.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

const mail = receiveInvitations();
const dir = newConfigDir();
let ada: APIRequestContext;
let org: Org;

type Project = { id: string; name: string; alertingEnabled: boolean };
type Bot = { id: string; name: string; policies: { policy: string; projectId: string | null }[] };
type Invitation = { id: string; email: string; policies: { policy: string; projectId: string | null }[] };

test.beforeAll(async () => {
  await mail.start();
  ada = await sessionFor('ada');
  org = await newOrg(ada, 'CLI onboarding');
  await login('ada', dir);
});
test.afterAll(async () => {
  await ada.dispose();
  await mail.stop();
});

/** `svc …` in the test organization. */
const svc = (...args: string[]) => runCli([...args, '--org', org.id], dir);
const succeeded = (r: CliResult) => expect(r.code, r.stderr).toBe(0);
/** A refusal: non-zero, nothing on stdout, the message on stderr. */
function refused(r: CliResult, message: string | RegExp) {
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
}
async function listed<T>(...args: string[]): Promise<T[]> {
  const r = await svc(...args, '--json');
  succeeded(r);
  return JSON.parse(r.stdout) as T[];
}

test('orgs create says creating an organization needs the console (OAuth tokens are refused), and makes none', async () => {
  const before = await runCli(['orgs', 'list', '--json'], dir);
  const r = await runCli(['orgs', 'create', 'Made from a terminal'], dir);
  refused(r, /Creating an organization needs the console: sign in at http\S+ and choose "New organization"/);
  expect((await runCli(['orgs', 'list', '--json'], dir)).stdout).toBe(before.stdout);
});

test('projects create prints the id, list shows it, update renames it and turns alerting off; a taken name is 409', async () => {
  const made = await svc('projects', 'create', 'Edge', '--alerting');
  succeeded(made);
  const id = made.stdout.trim();
  expect(made.stderr).toContain('Created project Edge in');
  expect(await listed<Project>('projects', 'list')).toEqual([
    expect.objectContaining({ id, name: 'Edge', alertingEnabled: true }),
  ]);
  const table = await svc('projects', 'list');
  expect(table.stdout).toMatch(/^NAME\s+ALERTING\s+ID\nEdge\s+on\s+[0-9a-f-]{36}\n$/);

  const updated = await svc('projects', 'update', 'edge', '--name', 'Edge EU', '--no-alerting');
  succeeded(updated);
  expect(updated.stdout).toBe(`${id}\n`);
  expect(await listed<Project>('projects', 'list')).toEqual([
    expect.objectContaining({ id, name: 'Edge EU', alertingEnabled: false }),
  ]);

  refused(await svc('projects', 'create', 'EDGE eu'), 'A project of this organization is already called EDGE eu.');
  refused(await svc('projects', 'update', 'Nowhere', '--alerting'), /No project "Nowhere" in .*\n\s+Edge EU\s+\(/);
  refused(await svc('projects', 'update', id), 'Nothing to change');
  expect(await listed<Project>('projects', 'list')).toEqual([
    { id, name: 'Edge EU', alertingEnabled: false, organizationId: org.id },
  ]);
});

test('members invite prints the invitation (its link is emailed), invitations lists and revokes it; a member is 409', async () => {
  const email = freshEmail('cli-ivy');
  const r = await svc('members', 'invite', email, '--role', 'BasicAccess', '--role', 'SilencesEditor:Edge EU');
  succeeded(r);
  expect(r.stderr).toContain(`Invited ${email} to `);
  expect(r.stderr).toContain('as BasicAccess, SilencesEditor:Edge EU');
  expect(r.stderr).toContain(`The link was emailed to ${email}.`);
  const id = r.stdout.trim();
  // The mail may land a moment after the answer; mailedLink throws until it has.
  const link = () => {
    try {
      return mailedLink(email);
    } catch {
      return '';
    }
  };
  await expect.poll(link).toMatch(/\/invite\//);

  const pending = await listed<Invitation>('members', 'invitations');
  expect(pending.map((i) => [i.id, i.email])).toEqual([[id, email]]);
  const table = await svc('members', 'invitations', 'list');
  expect(table.stdout).toMatch(
    new RegExp(
      `^EMAIL\\s+ROLES\\s+INVITED BY\\s+EXPIRES\\s+ID\\n${email}\\s+BasicAccess, SilencesEditor:Edge EU\\s+Ada`,
    ),
  );

  refused(await svc('members', 'invite', EMAILS.ada), `${EMAILS.ada} is already a member of this organization.`);
  refused(await svc('members', 'invite', freshEmail('x'), '--role', 'Viewer:Nowhere'), /No project "Nowhere"/);
  expect((await listed<Invitation>('members', 'invitations')).map((i) => i.id)).toEqual([id]);

  // Two pending invitations to one email: revoking by email lists both and revokes neither.
  const again = await svc('members', 'invite', email);
  succeeded(again);
  refused(
    await svc('members', 'invitations', 'revoke', email),
    /Several pending invitations .* match .*nothing was changed/,
  );
  expect(await listed<Invitation>('members', 'invitations')).toHaveLength(2);

  const revoked = await svc('members', 'invitations', 'revoke', id);
  succeeded(revoked);
  expect(revoked.stderr).toContain(`Revoked the invitation of ${email}`);
  refused(await svc('members', 'invitations', 'revoke', id), /No pending invitation/);
  expect((await listed<Invitation>('members', 'invitations')).map((i) => i.id)).toEqual([again.stdout.trim()]);
});

test('members roles replaces a member’s roles, by email or id; the last OrganizationAdmin keeps it (409)', async () => {
  const mo = await joined(ada, org.id, 'cli-mo', orgScope('BasicAccess'));
  const [edge] = await listed<Project>('projects', 'list');
  const r = await svc('members', 'roles', mo.email, '--role', 'MemberAdmin', '--role', `SilencesEditor:${edge.id}`);
  succeeded(r);
  expect(r.stderr).toContain('now has MemberAdmin, SilencesEditor:Edge EU in');
  const after = (await members(ada, org.id)).find((m) => m.userId === mo.userId);
  expect(after?.policies).toHaveLength(2);
  expect(after?.policies).toEqual(
    expect.arrayContaining([
      { policy: 'MemberAdmin', projectId: null },
      { policy: 'SilencesEditor', projectId: edge.id },
    ]),
  );
  succeeded(await svc('members', 'roles', mo.userId, '--role', 'BasicAccess'));
  expect((await members(ada, org.id)).find((m) => m.userId === mo.userId)?.policies).toEqual(orgScope('BasicAccess'));

  const adaBefore = (await members(ada, org.id)).find((m) => m.email === EMAILS.ada);
  refused(await svc('members', 'roles', EMAILS.ada, '--role', 'BasicAccess'), /OrganizationAdmin/);
  expect((await members(ada, org.id)).find((m) => m.email === EMAILS.ada)).toEqual(adaBefore);
  refused(await svc('members', 'roles', mo.email), /required option '--role/);
  await mo.session.dispose();
});

test('bots create prints the id, bots roles replaces its roles; a taken name is 409, an unknown bot lists them', async () => {
  const made = await svc('bots', 'create', 'cli-deployer', '--role', 'BasicAccess');
  succeeded(made);
  const id = made.stdout.trim();
  expect(made.stderr).toContain('Created bot cli-deployer in');
  const bots = async () =>
    ((await (await ada.get(`/v1/organizations/${org.id}/bots`)).json()) as { items: Bot[] }).items;
  expect((await bots()).find((b) => b.id === id)?.policies).toEqual(orgScope('BasicAccess'));

  const roles = await svc(
    'bots',
    'roles',
    'cli-deployer',
    '--role',
    'BasicAccess',
    '--role',
    'SilencesEditor:Edge EU',
    '--json',
  );
  succeeded(roles);
  expect((JSON.parse(roles.stdout) as Bot).policies.map((p) => p.policy).sort()).toEqual([
    'BasicAccess',
    'SilencesEditor',
  ]);

  const before = await bots();
  refused(
    await svc('bots', 'create', 'cli-deployer', '--role', 'BasicAccess'),
    'A bot of this organization is already called cli-deployer.',
  );
  refused(await svc('bots', 'create', 'cli-other', '--role', 'NoSuchPolicy'), /policies\.0\.policy/);
  refused(
    await svc('bots', 'roles', 'cli-nobody', '--role', 'BasicAccess'),
    /No bot "cli-nobody" in .*\n\s+cli-deployer\s+\(/,
  );
  expect(await bots()).toEqual(before);
});
