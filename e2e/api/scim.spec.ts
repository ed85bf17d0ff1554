import { expect, expectError, sessionFor, test } from '../fixtures';
import { createKey, createScimToken, oauthTokens, scimPatch, statusWithKey, userIdOf } from '../support/api-keys';

const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

test('SCIM needs the organization’s token, answering SCIM errors', async ({ request, as, demo, fixtures }) => {
  for (const authorization of [undefined, 'Bearer scim_nope', `Bearer ${fixtures.keys.deployBot}`]) {
    const res = await request.get('/scim/v2/Users', { headers: authorization ? { Authorization: authorization } : {} });
    expect(res.status()).toBe(401);
    expect(res.headers()['content-type']).toContain('application/scim+json');
    expect(await res.json()).toMatchObject({ schemas: [SCIM_ERROR], status: '401' });
  }
  await expectError(await (await as('cy')).post(`/v1/organizations/${demo.acme}/scim-tokens`), 403, 'access_denied');
  const first = await createScimToken(await as('ada'), demo.acme);
  const second = await createScimToken(await as('ada'), demo.acme);
  expect((await request.get('/scim/v2/Users', { headers: { Authorization: `Bearer ${first}` } })).status()).toBe(401);
  expect((await request.get('/scim/v2/Users', { headers: { Authorization: `Bearer ${second}` } })).status()).toBe(200);
});

test('a token sees its organization’s members only; userName filters', async ({ request, as, demo }) => {
  const token = await createScimToken(await as('ada'), demo.acme);
  const headers = { Authorization: `Bearer ${token}` };
  const all = await (await request.get('/scim/v2/Users', { headers })).json();
  expect(all.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
  const names = all.Resources.map((u: { userName: string }) => u.userName);
  expect(names).toEqual(expect.arrayContaining(['ada@acme.test', 'bob@acme.test', 'sam@acme.test']));
  expect(names).not.toContain('gil@globex.test');
  // One page of members; on PostgreSQL the revocation trials add more members than a page holds.
  expect(all.totalResults).toBeGreaterThanOrEqual(names.length);
  expect(all.itemsPerPage).toBe(names.length);

  const one = await (
    await request.get(`/scim/v2/Users?filter=${encodeURIComponent('userName eq "SAM@acme.test"')}`, { headers })
  ).json();
  expect(one.totalResults).toBe(1);
  expect(one.Resources[0]).toMatchObject({
    userName: 'sam@acme.test',
    active: true,
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  });
  const none = await (
    await request.get(`/scim/v2/Users?filter=${encodeURIComponent('userName eq "gil@globex.test"')}`, { headers })
  ).json();
  expect(none).toMatchObject({ totalResults: 0, Resources: [] });
  const bad = await request.get(`/scim/v2/Users?filter=${encodeURIComponent('userName eq')}`, { headers });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ schemas: [SCIM_ERROR], status: '400', scimType: 'invalidFilter' });

  const byId = await (await request.get(`/scim/v2/Users/${one.Resources[0].id}`, { headers })).json();
  expect(byId.userName).toBe('sam@acme.test');
  const gil = await request.get(`/scim/v2/Users/${demo.users.gil}`, { headers });
  expect(gil.status()).toBe(404);
  expect(await gil.json()).toMatchObject({ schemas: [SCIM_ERROR], status: '404' });
  const patchGil = await scimPatch(request, token, demo.users.gil, [{ op: 'replace', path: 'active', value: false }]);
  expect(patchGil.status()).toBe(404);
});

const suspensions: [string, 'patch' | 'put', unknown][] = [
  ['Okta: replace without path, boolean', 'patch', [{ op: 'replace', value: { active: false } }]],
  ['Entra: "Replace" with path and the string "False"', 'patch', [{ op: 'Replace', path: 'active', value: 'False' }]],
  ['replace with path, boolean', 'patch', [{ op: 'replace', path: 'active', value: false }]],
  ['"REPLACE" without path, string "false"', 'patch', [{ op: 'REPLACE', value: { active: 'false' } }]],
  ['add with path', 'patch', [{ op: 'Add', path: 'active', value: false }]],
  [
    'PUT of the whole user',
    'put',
    { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'sam@acme.test', active: false },
  ],
];

for (const [shape, method, payload] of suspensions) {
  test(`suspension (${shape}) ends keys, OAuth tokens and sessions; reactivation restores nothing`, async ({
    request,
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const token = await createScimToken(ada, demo.acme);
    const samId = await userIdOf(ada, demo.acme, 'sam@acme.test');
    const sam = await sessionFor('sam@acme.test');
    const { secret } = await createKey(sam, demo.acme, { name: `sam ${shape}` });
    expect(await statusWithKey(request, secret)).toBe(200);

    const res =
      method === 'patch'
        ? await scimPatch(request, token, samId, payload as unknown[])
        : await request.put(`/scim/v2/Users/${samId}`, {
            headers: { Authorization: `Bearer ${token}` },
            data: payload,
          });
    expect(res.status(), await res.text()).toBe(200);
    expect((await res.json()).active).toBe(false);

    expect(await statusWithKey(request, secret)).toBe(401);
    expect(await statusWithKey(request, oauthTokens().sam)).toBe(401);
    expect((await sam.get('/v1/organizations')).status()).toBe(401);

    const back = await scimPatch(request, token, samId, [{ op: 'replace', path: 'active', value: true }]);
    expect((await back.json()).active).toBe(true);
    expect(await statusWithKey(request, secret)).toBe(401);
    expect(await statusWithKey(request, oauthTokens().sam)).toBe(401);
    // The old session stays ended; signing in again works.
    expect((await sam.get('/v1/organizations')).status()).toBe(401);
    const again = await sessionFor('sam@acme.test');
    expect((await again.get('/v1/organizations')).status()).toBe(200);
    await Promise.all([sam.dispose(), again.dispose()]);
  });
}

test('a PATCH with a value that is no boolean is 400 and changes nothing', async ({ request, as, demo }) => {
  const ada = await as('ada');
  const token = await createScimToken(ada, demo.acme);
  const samId = await userIdOf(ada, demo.acme, 'sam@acme.test');
  const { secret } = await createKey(await sessionFor('sam@acme.test'), demo.acme, { name: 'sam stays' });
  for (const operations of [
    [{ op: 'replace', path: 'active', value: 'maybe' }],
    [{ op: 'explode', path: 'active', value: false }],
  ]) {
    const res = await scimPatch(request, token, samId, operations);
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ schemas: [SCIM_ERROR], status: '400' });
  }
  expect(await statusWithKey(request, secret)).toBe(200);
});
