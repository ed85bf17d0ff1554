import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, expectError, test } from '../fixtures';
import { auditEventsAbout } from '../support/audit';
import { E2E } from '../support/env';
import { startReceiver } from '../support/webhook-receiver';
import { createWebhook } from '../support/webhooks';
import {
  anonymous,
  freshEmail,
  invite,
  mailedLink,
  receiveInvitations,
  joined,
  members,
  newOrg,
  orgScope,
  PASSWORD,
  signedIn,
  tokenOf,
} from '../support/onboarding';

// Invitations: the inviter's side, then the invitee's, with every refusal of PRODUCT.md; each test makes
// the organization and the people it needs. The main test server has SMTP_URL: links are read from the mail the test
// receiver got (e2e/api/onboarding-setup.spec.ts has a server without SMTP_URL, whose answers carry `url`).

const mail = receiveInvitations();
test.beforeAll(mail.start);
test.afterAll(mail.stop);

const unknownToken = () => randomBytes(32).toString('base64url');

test('an invitation: pending, previewed in public, accepted once by making the account; then the link is dead', async ({
  as,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Invites');
  const email = freshEmail('ivy');
  const issued = await invite(ada, org.id, email, orgScope('BasicAccess'));
  expect(issued.invitation).toMatchObject({ email, policies: orgScope('BasicAccess') });
  const listed = (await (await ada.get(`/v1/organizations/${org.id}/invitations`)).json()).items;
  expect(listed.map((i: { id: string }) => i.id)).toEqual([issued.invitation.id]);
  expect(issued.url).toBeUndefined(); // with SMTP_URL the link goes by email only
  expect(JSON.stringify(listed)).not.toContain(tokenOf(issued.link));

  const anon = await anonymous();
  const token = tokenOf(issued.link);
  const preview = await anon.get(`/v1/invitations/${token}`);
  expect(preview.status(), await preview.text()).toBe(200);
  expect(await preview.json()).toMatchObject({
    organization: { id: org.id },
    inviter: { name: 'Ada Lovelace' },
    email,
  });

  await expectError(await anon.post(`/v1/invitations/${token}/accept`, { data: {} }), 400, 'invalid_request', [
    'name',
    'password',
  ]);
  const accepted = await anon.post(`/v1/invitations/${token}/accept`, { data: { name: 'Ivy', password: PASSWORD } });
  expect(accepted.status(), await accepted.text()).toBe(200);
  expect(await accepted.json()).toMatchObject({ user: { email, name: 'Ivy' }, organization: { id: org.id } });
  const ivy = await signedIn(email);
  expect((await (await ivy.get('/v1/organizations')).json()).items.map((o: { id: string }) => o.id)).toEqual([org.id]);

  // Used: 404 for the preview and a second acceptance, nothing changed.
  await expectError(await anon.get(`/v1/invitations/${token}`), 404, 'not_found');
  await expectError(
    await anon.post(`/v1/invitations/${token}/accept`, { data: { name: 'Again', password: PASSWORD } }),
    404,
    'not_found',
  );
  expect((await members(ada, org.id)).map((m) => m.email).sort()).toEqual(['ada@acme.test', email].sort());
  expect((await (await ada.get(`/v1/organizations/${org.id}/invitations`)).json()).items).toEqual([]);
  const actions = (await auditEventsAbout(ada, org.id, issued.invitation.id)).map((e) => e.action);
  expect(actions).toEqual(['invitation.created', 'invitation.accepted']);
  await Promise.all([anon.dispose(), ivy.dispose()]);
});

test('unknown, revoked and resent-over links are 404; the resent link works', async ({ as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Links');
  const anon = await anonymous();
  const body = { data: { name: 'Rex', password: PASSWORD } };
  await expectError(await anon.get(`/v1/invitations/${unknownToken()}`), 404, 'not_found');
  await expectError(await anon.post(`/v1/invitations/${unknownToken()}/accept`, body), 404, 'not_found');
  await expectError(await anon.get('/v1/invitations/not-a-token'), 404, 'not_found');

  const revoked = await invite(ada, org.id, freshEmail('rex'), orgScope('BasicAccess'));
  expect((await ada.delete(`/v1/organizations/${org.id}/invitations/${revoked.invitation.id}`)).status()).toBe(204);
  await expectError(await anon.post(`/v1/invitations/${tokenOf(revoked.link)}/accept`, body), 404, 'not_found');
  await expectError(
    await ada.delete(`/v1/organizations/${org.id}/invitations/${revoked.invitation.id}`),
    404,
    'not_found',
  );

  const first = await invite(ada, org.id, freshEmail('sue'), orgScope('BasicAccess'));
  const again = await ada.post(`/v1/organizations/${org.id}/invitations/${first.invitation.id}/resend`);
  expect(again.status(), await again.text()).toBe(200);
  expect((await again.json()).url).toBeUndefined(); // emailed instead
  const url = mailedLink(first.invitation.email);
  await expectError(await anon.post(`/v1/invitations/${tokenOf(first.link)}/accept`, body), 404, 'not_found');
  expect((await members(ada, org.id)).length).toBe(1);
  expect((await anon.post(`/v1/invitations/${tokenOf(url)}/accept`, body)).status()).toBe(200);
  expect((await members(ada, org.id)).length).toBe(2);
  // A resend is its own action, not a second creation.
  const actions = (await auditEventsAbout(ada, org.id, first.invitation.id)).map((e) => e.action);
  expect(actions).toEqual(['invitation.created', 'invitation.resent', 'invitation.accepted']);
  await anon.dispose();
});

test('signed in as another email: 403 invitation_email_mismatch; already a member: 409, nothing changed', async ({
  as,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Mismatch');
  const bob = await as('bob');
  const issued = await invite(ada, org.id, freshEmail('zoe'), orgScope('BasicAccess'));
  await expectError(await bob.post(`/v1/invitations/${tokenOf(issued.link)}/accept`), 403, 'invitation_email_mismatch');
  expect((await members(ada, org.id)).length).toBe(1);

  await expectError(
    await ada.post(`/v1/organizations/${org.id}/invitations`, {
      data: { email: 'ada@acme.test', policies: orgScope('BasicAccess') },
    }),
    409,
    'already_member',
  );
  // Two invitations to one email: the second, accepted by the member the first made, is 409 and stays usable.
  const email = freshEmail('two');
  const one = await invite(ada, org.id, email, orgScope('BasicAccess'));
  const two = await invite(ada, org.id, email, orgScope('BasicAccess'));
  const anon = await anonymous();
  expect(
    (
      await anon.post(`/v1/invitations/${tokenOf(one.link)}/accept`, { data: { name: 'Two', password: PASSWORD } })
    ).status(),
  ).toBe(200);
  const two_ = await signedIn(email);
  await expectError(await two_.post(`/v1/invitations/${tokenOf(two.link)}/accept`), 409, 'already_member');
  expect((await two_.get(`/v1/invitations/${tokenOf(two.link)}`)).status()).toBe(200);
  await Promise.all([anon.dispose(), two_.dispose()]);
});

test('a signed-in invitee joins with their account; nobody invites with what they do not hold', async ({ as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Join');
  const other = await newOrg(ada, 'Other');
  const person = await joined(ada, other.id, 'pat', orgScope('BasicAccess'));
  const issued = await invite(ada, org.id, person.email, orgScope('BasicAccess'));
  const res = await person.session.post(`/v1/invitations/${tokenOf(issued.link)}/accept`);
  expect(res.status(), await res.text()).toBe(200);
  expect((await members(ada, org.id)).find((m) => m.email === person.email)?.policies).toEqual(orgScope('BasicAccess'));

  const inviter = await joined(ada, org.id, 'max', orgScope('BasicAccess', 'MemberAdmin'));
  await expectError(
    await inviter.session.post(`/v1/organizations/${org.id}/invitations`, {
      data: { email: freshEmail('nope'), policies: orgScope('BasicAccess', 'BotAdmin') },
    }),
    400,
    'invalid_request',
    ['policies.1.policy'],
  );
  expect((await (await ada.get(`/v1/organizations/${org.id}/invitations`)).json()).items).toEqual([]);
  await Promise.all([person.session.dispose(), inviter.session.dispose()]);
});

test('an expired link is 404 everywhere and leaves the pending list', async ({ as }) => {
  test.skip(!process.env.DATABASE_URL, 'moves the expiry in the database: PostgreSQL only (the server holds DATA_DIR)');
  const ada = await as('ada');
  const org = await newOrg(ada, 'Expired');
  const issued = await invite(ada, org.id, freshEmail('late'), orgScope('BasicAccess'));
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client
    .query(`update invitations set expires_at = now() - interval '1 second' where id = $1`, [issued.invitation.id])
    .finally(() => client.end());
  const anon = await anonymous();
  const token = tokenOf(issued.link);
  await expectError(await anon.get(`/v1/invitations/${token}`), 404, 'not_found');
  await expectError(
    await anon.post(`/v1/invitations/${token}/accept`, { data: { name: 'Late', password: PASSWORD } }),
    404,
    'not_found',
  );
  await expectError(
    await ada.post(`/v1/organizations/${org.id}/invitations/${issued.invitation.id}/resend`),
    404,
    'not_found',
  );
  expect((await (await ada.get(`/v1/organizations/${org.id}/invitations`)).json()).items).toEqual([]);
  expect((await members(ada, org.id)).length).toBe(1);
  await anon.dispose();
});

test('onboarding events reach a webhook subscribed to their nouns', async ({ as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Hooks');
  const receiver = await startReceiver(E2E.port + 83);
  try {
    await createWebhook(ada, org.id, { url: `${receiver.url}/onboarding`, events: ['invitation.*', 'member.*'] });
    const email = freshEmail('hooked');
    const issued = await invite(ada, org.id, email, orgScope('BasicAccess'));
    const anon = await anonymous();
    const res = await anon.post(`/v1/invitations/${tokenOf(issued.link)}/accept`, {
      data: { name: 'Hooked', password: PASSWORD },
    });
    expect(res.status()).toBe(200);
    await anon.dispose();
    const types = () => receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type).sort();
    await expect
      .poll(types, { timeout: 10_000 })
      .toEqual(['invitation.accepted', 'invitation.created', 'member.joined']);
  } finally {
    await receiver.close();
  }
});
