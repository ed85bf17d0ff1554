import { request as playwrightRequest } from '@playwright/test';
import { expect, test } from '../fixtures';
import { createScimToken } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { freshEmail, members, newOrg, orgScope } from '../support/onboarding';

// Provisioning: an identity provider creates a user over SCIM (RFC 7644 §3.3) in its organization.
test('POST /scim/v2/Users makes a member with BasicAccess; a userName taken is 409 uniqueness, nothing changed', async ({
  as,
  baseURL,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'SCIM');
  const token = await createScimToken(ada, org.id);
  const idp = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
  });
  const email = freshEmail('scim');
  const user = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: email,
    name: { givenName: 'Sam', familyName: 'Provisioned' },
    externalId: 'okta-123',
    active: true,
  };
  const res = await idp.post('/scim/v2/Users', { data: user });
  expect(res.status(), await res.text()).toBe(201);
  const made = await res.json();
  expect(made).toMatchObject({ userName: email, displayName: 'Sam Provisioned', externalId: 'okta-123', active: true });
  expect(res.headers().location).toBe(made.meta.location);
  const member = (await members(ada, org.id)).find((m) => m.email === email);
  expect(member?.policies).toEqual(orgScope('BasicAccess'));
  const [event] = await auditEventsAbout(ada, org.id, made.id);
  expect(event).toMatchObject({ action: 'member.joined', actor: { type: 'identity_provider', via: 'scim' } });

  const before = await members(ada, org.id);
  for (const userName of [email, 'ada@acme.test']) {
    const taken = await idp.post('/scim/v2/Users', { data: { ...user, userName } });
    expect(taken.status()).toBe(409);
    expect(await taken.json()).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '409',
      scimType: 'uniqueness',
      detail: expect.any(String),
    });
  }
  const bad = await idp.post('/scim/v2/Users', { data: { ...user, userName: 'not an email' } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).scimType).toBe('invalidValue');
  expect(await members(ada, org.id)).toEqual(before);
  await idp.dispose();
});
