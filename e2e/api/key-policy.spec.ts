import type { APIResponse } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { createKey, keyIdentities, listKeys } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';

// The organization key policy, on Globex (gil is its only admin), so no other file's keys in Acme are touched.
const unique = (what: string) => `${what} ${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

async function issuesOf(res: APIResponse): Promise<string[]> {
  const body = await res.text();
  expect(res.status(), body).toBe(400);
  const { error } = JSON.parse(body) as { error: { code: string; issues: { path: string }[] } };
  expect(error.code).toBe('invalid_request');
  return error.issues.map((i) => i.path);
}

test.describe('organization key policy', () => {
  test.describe.configure({ mode: 'serial' });

  test('enforced on create, roll and change (400 at the field) and on use of older keys (403, kept)', async ({
    as,
    demo,
  }) => {
    const gil = await as('gil');
    const org = `/v1/organizations/${demo.globex}`;
    const keys = `${org}/api-keys`;
    const older = await createKey(gil, demo.globex, { name: unique('before the policy') });
    const olderKey = await bearer(older.secret);
    expect((await olderKey.get(`${org}/projects`)).status()).toBe(200);

    const policy = { maxLifetimeDays: 30, requireRestrictions: true, allowedIps: ['127.0.0.0/8', '::1'] };
    try {
      // Only orgs.update sets it.
      expect(
        (await (await as('bob')).patch(`/v1/organizations/${demo.acme}`, { data: { keyPolicy: policy } })).status(),
      ).toBe(403);
      const set = await gil.patch(org, { data: { keyPolicy: policy } });
      expect(set.status(), await set.text()).toBe(200);
      expect((await set.json()).keyPolicy).toEqual({ ...policy, allowedIps: ['127.0.0.0/8', '::1/128'] });
      const [updated] = (await auditEventsAbout(gil, demo.globex, demo.globex))
        .filter((e) => e.action === 'organization.updated')
        .slice(-1);
      expect(updated.changes).toEqual([
        { field: 'keyPolicy', from: null, to: { ...policy, allowedIps: ['127.0.0.0/8', '::1/128'] } },
      ]);

      // Use: the older key breaks every rule; refused, kept, and listed as such.
      const refused = await olderKey.get(`${org}/projects`);
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error.code).toBe('key_policy_violation');
      const listed = (await listKeys(gil, demo.globex)).find((k) => k.id === older.apiKey.id);
      expect(listed?.policyViolations).toEqual(['maxLifetimeDays', 'requireRestrictions', 'allowedIps']);

      // Create: each broken rule at its field, nothing created.
      const before = await keyIdentities(gil, demo.globex);
      expect(await issuesOf(await gil.post(keys, { data: { name: unique('too long') } }))).toEqual([
        'expiresInDays',
        'permissions',
        'allowedIps',
      ]);
      expect(
        await issuesOf(
          await gil.post(keys, {
            data: { name: unique('outside'), expiresInDays: 30, allowedIps: ['127.0.0.1', '203.0.113.0/24'] },
          }),
        ),
      ).toEqual(['allowedIps.1']);
      expect(await keyIdentities(gil, demo.globex)).toEqual(before);

      // A key that keeps the policy works.
      const kept = await createKey(gil, demo.globex, {
        name: unique('kept'),
        expiresInDays: 30,
        allowedIps: ['127.0.0.1'],
      });
      expect(kept.apiKey.policyViolations).toEqual([]);
      const keptKey = await bearer(kept.secret);
      expect((await keptKey.get(`${org}/projects`)).status()).toBe(200);

      // Roll: the older key cannot be rolled into another breaking key; the kept one can.
      const beforeRoll = await keyIdentities(gil, demo.globex);
      expect(
        await issuesOf(await gil.post(`${keys}/${older.apiKey.id}/roll`, { data: { gracePeriodSeconds: 0 } })),
      ).toEqual(['expiresInDays', 'permissions', 'allowedIps']);
      expect(await keyIdentities(gil, demo.globex)).toEqual(beforeRoll);
      const rolled = await gil.post(`${keys}/${kept.apiKey.id}/roll`, { data: { gracePeriodSeconds: 60 } });
      expect(rolled.status(), await rolled.text()).toBe(201);

      // Change: lifting its only restriction would break two rules.
      expect(await issuesOf(await gil.patch(`${keys}/${kept.apiKey.id}`, { data: { allowedIps: null } }))).toEqual([
        'permissions',
        'allowedIps',
      ]);
    } finally {
      const cleared = await gil.patch(org, { data: { keyPolicy: null } });
      expect(cleared.status(), await cleared.text()).toBe(200);
    }
    // Relaxed: the kept older key works again.
    expect((await olderKey.get(`${org}/projects`)).status()).toBe(200);
    await olderKey.dispose();
  });
});
