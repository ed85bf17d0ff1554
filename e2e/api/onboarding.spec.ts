import { bearer, expect, expectError, test } from '../fixtures';
import { createKey, oauthTokens } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { joined, members, newOrg, orgScope, receiveInvitations } from '../support/onboarding';
import { staleSession } from '../support/second-factor';

// Organizations, projects, bots and roles through the API alone. Each test makes the organization and
// the people it changes; refusals assert the exact envelope and that nothing changed.

const mail = receiveInvitations();
test.beforeAll(mail.start);
test.afterAll(mail.stop);

test('a person makes an organization and is its OrganizationAdmin; keys and OAuth tokens may not', async ({
  as,
  fixtures,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Made by ada');
  const [me] = await members(ada, org.id);
  expect(me.email).toBe('ada@acme.test');
  expect(me.policies).toEqual(orgScope('OrganizationAdmin'));
  const [event] = await auditEventsAbout(ada, org.id, org.id);
  expect(event).toMatchObject({ action: 'organization.created', actor: { type: 'user', via: 'session' } });

  const before = (await (await ada.get('/v1/organizations?limit=100')).json()).items.length;
  for (const token of [fixtures.keys.deployBot, oauthTokens().bob]) {
    const other = await bearer(token);
    await expectError(await other.post('/v1/organizations', { data: { name: 'Not by a key' } }), 403, 'access_denied');
    await other.dispose();
  }
  expect((await (await ada.get('/v1/organizations?limit=100')).json()).items.length).toBe(before);
});

test('projects: created and changed with projects.create/update, names unique in the organization', async ({ as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Projects');
  const base = `/v1/organizations/${org.id}/projects`;
  const made = await ada.post(base, { data: { name: 'Web' } });
  expect(made.status(), await made.text()).toBe(201);
  const web = await made.json();
  expect(web).toEqual({ id: web.id, organizationId: org.id, name: 'Web', alertingEnabled: false });
  const api = await (await ada.post(base, { data: { name: 'API', alertingEnabled: true } })).json();

  await expectError(await ada.post(base, { data: { name: 'web' } }), 409, 'project_name_taken');
  await expectError(await ada.patch(`${base}/${api.id}`, { data: { name: 'WEB' } }), 409, 'project_name_taken');
  const changed = await ada.patch(`${base}/${web.id}`, { data: { name: 'Website', alertingEnabled: true } });
  expect(changed.status(), await changed.text()).toBe(200);
  expect(await changed.json()).toMatchObject({ name: 'Website', alertingEnabled: true });
  const list = (await (await ada.get(base)).json()).items.map((p: { name: string }) => p.name);
  expect(list.sort()).toEqual(['API', 'Website']);
  const events = await auditEventsAbout(ada, org.id, web.id);
  expect(events.map((e) => e.action)).toEqual(['project.created', 'project.updated']);
  expect(events[1].changes).toEqual([
    { field: 'name', from: 'Web', to: 'Website' },
    { field: 'alertingEnabled', from: false, to: true },
  ]);

  // A member without projects.create / projects.update: 403 access_denied, nothing made.
  const { session } = await joined(ada, org.id, 'basic', orgScope('BasicAccess'));
  await expectError(await session.post(base, { data: { name: 'Nope' } }), 403, 'access_denied');
  await expectError(await session.patch(`${base}/${web.id}`, { data: { name: 'Nope' } }), 403, 'access_denied');
  expect((await (await ada.get(base)).json()).items).toHaveLength(2);
  await session.dispose();
});

test('a role change holds on the next request of the member’s key; the last OrganizationAdmin keeps it', async ({
  as,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Roles');
  const { userId, session } = await joined(ada, org.id, 'dana', orgScope('BasicAccess'));
  const { secret } = await createKey(session, org.id, { name: 'dana key' });
  const key = await bearer(secret);
  const membersPath = `/v1/organizations/${org.id}/members`;
  await expectError(await key.get(membersPath), 403, 'access_denied');

  const put = (body: unknown, who = ada, id = userId) => who.put(`${membersPath}/${id}/policies`, { data: body });
  const res = await put({ policies: orgScope('BasicAccess', 'MemberAdmin') });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).policies).toEqual(orgScope('BasicAccess', 'MemberAdmin'));
  expect((await key.get(membersPath)).status()).toBe(200); // the very next request
  expect((await put({ policies: orgScope('BasicAccess') })).status()).toBe(200);
  await expectError(await key.get(membersPath), 403, 'access_denied');

  const event = (await auditEventsAbout(ada, org.id, userId))
    .filter((e) => e.action === 'member.policies_changed')
    .at(-1)!;
  expect(event.changes).toEqual([
    { field: 'policies', from: orgScope('BasicAccess', 'MemberAdmin'), to: orgScope('BasicAccess') },
  ]);

  const adaId = (await members(ada, org.id)).find((m) => m.email === 'ada@acme.test')!.userId;
  const error = await expectError(
    await put({ policies: orgScope('BasicAccess') }, ada, adaId),
    409,
    'last_organization_admin',
  );
  expect(error.message).toContain('OrganizationAdmin');
  expect((await members(ada, org.id)).find((m) => m.userId === adaId)!.policies).toEqual(orgScope('OrganizationAdmin'));
  await Promise.all([key.dispose(), session.dispose()]);
});

test('nobody grants what they do not hold; unknown policies and other organizations’ projects are 400 at their path', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Grants');
  const admin = await joined(ada, org.id, 'mia', orgScope('BasicAccess', 'MemberAdmin', 'BotAdmin'));
  const target = await joined(ada, org.id, 'tom', orgScope('BasicAccess'));
  const path = `/v1/organizations/${org.id}/members/${target.userId}/policies`;
  const before = await members(ada, org.id);

  await expectError(
    await admin.session.put(path, { data: { policies: orgScope('BasicAccess', 'OrganizationAdmin') } }),
    400,
    'invalid_request',
    ['policies.1.policy'],
  );
  await expectError(
    await ada.put(path, {
      data: {
        policies: [
          { policy: 'NoSuchPolicy', projectId: null },
          { policy: 'QueuesEditor', projectId: demo.production },
        ],
      },
    }),
    400,
    'invalid_request',
    ['policies.0.policy', 'policies.1.projectId'],
  );
  await expectError(
    await admin.session.post(`/v1/organizations/${org.id}/bots`, {
      data: { name: 'too-strong', policies: orgScope('Auditor') },
    }),
    400,
    'invalid_request',
    ['policies.0.policy'],
  );
  expect(await members(ada, org.id)).toEqual(before);
  expect((await (await ada.get(`/v1/organizations/${org.id}/bots`)).json()).items).toEqual([]);

  // What mia holds she may give.
  const ok = await admin.session.put(path, { data: { policies: orgScope('BasicAccess', 'MemberAdmin') } });
  expect(ok.status(), await ok.text()).toBe(200);
  await Promise.all([admin.session.dispose(), target.session.dispose()]);
});

test('bots: made with policies, names unique, and a policy change holds on the bot key’s next request', async ({
  as,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Bots');
  const bots = `/v1/organizations/${org.id}/bots`;
  const made = await ada.post(bots, { data: { name: 'ci', policies: orgScope('BasicAccess') } });
  expect(made.status(), await made.text()).toBe(201);
  const bot = await made.json();
  expect(bot).toMatchObject({ name: 'ci', policies: orgScope('BasicAccess') });
  await expectError(await ada.post(bots, { data: { name: 'ci', policies: [] } }), 409, 'bot_name_taken');

  const { secret } = await createKey(ada, org.id, { name: 'ci key', botId: bot.id });
  const key = await bearer(secret);
  const projects = `/v1/organizations/${org.id}/projects`;
  await expectError(await key.post(projects, { data: { name: 'By the bot' } }), 403, 'access_denied');
  const changed = await ada.put(`${bots}/${bot.id}/policies`, {
    data: { policies: orgScope('BasicAccess', 'OrganizationAdmin') },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  expect((await key.post(projects, { data: { name: 'By the bot' } })).status()).toBe(201);
  const events = (await auditEventsAbout(ada, org.id, bot.id)).map((e) => e.action);
  expect(events).toEqual(['bot.created', 'bot.policies_changed']);
  await key.dispose();
});

test('changing roles, making bots and inviting ask a console session for sudo', async ({ as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Sudo');
  const adaId = (await members(ada, org.id))[0].userId;
  const stale = await staleSession(adaId);
  const base = `/v1/organizations/${org.id}`;
  await expectError(
    await stale.put(`${base}/members/${adaId}/policies`, { data: { policies: orgScope('OrganizationAdmin') } }),
    403,
    'reauthentication_required',
  );
  await expectError(
    await stale.post(`${base}/bots`, { data: { name: 'x', policies: [] } }),
    403,
    'reauthentication_required',
  );
  await expectError(
    await stale.post(`${base}/invitations`, { data: { email: 'x@onboarding.test', policies: [] } }),
    403,
    'reauthentication_required',
  );
  expect((await (await ada.get(`${base}/bots`)).json()).items).toEqual([]);
  await stale.dispose();
});

test("getting started follows the organization's data, step by step, each with its project", async ({ as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Getting started');
  const path = `/v1/organizations/${org.id}/getting-started`;
  const steps = async () => {
    const res = await ada.get(path);
    expect(res.status(), await res.text()).toBe(200);
    return res.json();
  };
  expect(await steps()).toEqual({
    alerting: { done: false, projectId: null },
    colleague: { done: false, projectId: null },
    sender: { done: false, projectId: null },
    queue: { done: false, projectId: null },
  });

  const project = await ada.post(`/v1/organizations/${org.id}/projects`, {
    data: { name: 'Prod', alertingEnabled: true },
  });
  const projectId = ((await project.json()) as { id: string }).id;
  await joined(ada, org.id, 'colleague', orgScope('BasicAccess'));
  expect(await steps()).toMatchObject({
    alerting: { done: true, projectId },
    colleague: { done: true },
    sender: { done: false, projectId },
    queue: { done: false, projectId },
  });

  // A post of alerts, refused or not, is a sender connected.
  const { secret } = await createKey(ada, org.id, {
    name: 'prometheus',
    permissions: ['obs.alerts.create'],
    projectIds: [projectId],
  });
  const sender = await bearer(secret);
  const post = await sender.post(`/alertmanager/${org.id}/${projectId}/api/v2/alerts`, {
    data: [{ labels: { 'bad-name': 'x' } }],
  });
  expect(post.status()).toBe(400);
  await sender.dispose();
  expect(await steps()).toMatchObject({ sender: { done: true, projectId } });
  const refusals = await ada.get(`/v1/organizations/${org.id}/projects/${projectId}/obs/alerts/refusals`);
  expect(((await refusals.json()) as { lastPostAt: string | null }).lastPostAt).not.toBeNull();
});
