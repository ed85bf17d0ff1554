import { expect, expectError, test } from '../fixtures';

// PATCH /v1/organizations/{orgId} `name` (orgs.update, sudo): the Settings page's rename.
test('an admin renames an organization, audited with before and after; a bad name changes nothing', async ({ as }) => {
  const ada = await as('ada');
  const made = await ada.post('/v1/organizations', { data: { name: `Rename ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const org = (await made.json()) as { id: string; name: string };
  const path = `/v1/organizations/${org.id}`;
  for (const name of ['', '   ', 'x'.repeat(101), 42])
    await expectError(await ada.patch(path, { data: { name } }), 400, 'invalid_request', ['name']);

  const renamed = await ada.patch(path, { data: { name: '  Renamed  ' } });
  expect(renamed.status(), await renamed.text()).toBe(200);
  expect(((await renamed.json()) as { name: string }).name).toBe('Renamed');
  // The same name again changes nothing and writes no second event.
  expect((await ada.patch(path, { data: { name: 'Renamed' } })).status()).toBe(200);
  const events = (await (await ada.get(`${path}/audit-events?action=organization.updated`)).json()) as {
    items: { changes: unknown[]; target: { name: string } }[];
  };
  expect(events.items).toHaveLength(1);
  expect(events.items[0].changes).toEqual([{ field: 'name', from: org.name, to: 'Renamed' }]);

  // cy is no member there (404); in Acme she lacks orgs.update (403).
  const cy = await as('cy');
  await expectError(await cy.patch(path, { data: { name: 'Mine' } }), 404, 'not_found');
  const acme = ((await (await cy.get('/v1/organizations')).json()) as { items: { id: string }[] }).items[0].id;
  await expectError(await cy.patch(`/v1/organizations/${acme}`, { data: { name: 'Mine' } }), 403, 'access_denied');
});
