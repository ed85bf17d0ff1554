import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { alertmanagerBase, amtool, everySilence, keyOf, unique, versions } from '../support/amtool';
import { productionSilences, silencesPath } from '../support/silences';

// The refusals of the Alertmanager family, in its own error format: a JSON string, never the /v1 envelope.
test.describe('the Alertmanager API refuses', () => {
  const valid = () => ({
    matchers: [{ name: 'job', value: 'api', isRegex: false, isEqual: true }],
    startsAt: new Date().toISOString(),
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    createdBy: 'x',
    comment: unique('refused'),
  });

  /** The refusal as Alertmanager's server words it: a JSON string body, always application/json. */
  async function expectAmError(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number) {
    expect(res.status(), await res.text()).toBe(status);
    expect(res.headers()['content-type']).toContain('application/json');
    const body: unknown = await res.json();
    expect(typeof body).toBe('string');
    return body as string;
  }

  test('401 without a credential, with a session cookie alone, or with a revoked key; amtool exits non-zero', async ({
    as,
    demo,
    fixtures,
    request,
  }) => {
    const base = alertmanagerBase(demo.acme, demo.production);
    const bob = await as('bob');
    const before = versions(await everySilence(bob, productionSilences(demo)));
    for (const ctx of [request, bob, await bearer('svc_not-a-key')]) {
      await expectAmError(await ctx.get(`${base}/api/v2/silences`), 401);
      await expectAmError(await ctx.post(`${base}/api/v2/silences`, { data: valid() }), 401);
    }
    expect(versions(await everySilence(bob, productionSilences(demo)))).toEqual(before);
    for (const auth of [{ bearer: fixtures.keys.bobRevoked }, { basic: fixtures.keys.bobExpired }, null]) {
      const res = await amtool(base, auth, ['silence', 'query', '-q']);
      expect(res.code).not.toBe(0);
    }
  });

  test('403 for a read-only key that writes; 404 for a foreign project, alerting off or an unknown silence', async ({
    as,
    demo,
    request,
  }) => {
    const cy = await keyOf(await as('cy'), demo, 'read-only');
    const gil = await keyOf(await as('gil'), demo, 'foreign', demo.globex);
    const bobKey = await keyOf(await as('bob'), demo, 'unknown id');
    const base = alertmanagerBase(demo.acme, demo.production);
    const auth = { Authorization: `Bearer ${cy}` };
    const bob = await as('bob');
    const listed = await everySilence(bob, productionSilences(demo));
    const before = versions(listed);
    // cy's own roles do not allow it: the body names the permission, its owner and the role that grants it.
    expect(
      await expectAmError(await request.post(`${base}/api/v2/silences`, { data: valid(), headers: auth }), 403),
    ).toMatch(
      /^Access denied: .+ \(this API key's owner\) does not hold obs\.silences\.create in this project\. .+: SilencesEditor\.$/,
    );
    const active = listed.find((s) => s.state === 'active')!;
    await expectAmError(await request.delete(`${base}/api/v2/silence/${active.id}`, { headers: auth }), 403);
    expect(versions(await everySilence(bob, productionSilences(demo)))).toEqual(before);
    await expectAmError(
      await request.get(`${base}/api/v2/silences`, { headers: { Authorization: `Bearer ${gil}` } }),
      404,
    );

    const ok = await request.get(`${base}/api/v2/silence/${active.id}`, { headers: auth });
    expect(ok.status()).toBe(200);
    for (const path of [
      `${alertmanagerBase(demo.globex, demo.globexProject)}/api/v2/silences`,
      `${alertmanagerBase(demo.acme, demo.staging)}/api/v2/silences`,
      `${base}/api/v2/silence/00000000-0000-4000-8000-000000000000`,
      `${base}/api/v2/silence/not-a-uuid`,
      `${base}/alertmanager/api/v2/status`,
    ])
      await expectAmError(await request.get(path, { headers: auth }), 404);
    expect(
      await expectAmError(
        await request.post(`${base}/api/v2/silences`, {
          data: { ...valid(), id: '00000000-0000-4000-8000-000000000000' },
          headers: { Authorization: `Bearer ${bobKey}` },
        }),
        404,
      ),
    ).toBe('silence not found');
  });

  test('400 for what /v1 refuses: a bad RE2, only empty-matching matchers, a bad time, a bad filter; nothing created', async ({
    as,
    demo,
    request,
  }) => {
    const bob = await as('bob');
    const key = await keyOf(bob, demo, 'invalid');
    const base = alertmanagerBase(demo.acme, demo.production);
    const auth = { Authorization: `Bearer ${key}` };
    const before = versions(await everySilence(bob, silencesPath(demo.acme, demo.production)));
    const bad = [
      { ...valid(), matchers: [{ name: 'job', value: '(', isRegex: true, isEqual: true }] },
      { ...valid(), matchers: [{ name: 'job', value: 'api', isRegex: false, isEqual: false }] },
      { ...valid(), matchers: [{ name: 'job', value: '.*', isRegex: true }] },
      { ...valid(), matchers: [{ name: '0job', value: 'api', isRegex: false }] },
      { ...valid(), endsAt: 'tomorrow' },
      { ...valid(), endsAt: new Date(Date.now() - 3_600_000).toISOString() },
      { ...valid(), comment: '' },
      { ...valid(), matchers: 'job=api' },
    ];
    for (const data of bad)
      await expectAmError(await request.post(`${base}/api/v2/silences`, { data, headers: auth }), 400);
    await expectAmError(
      await request.get(`${base}/api/v2/silences?filter=${encodeURIComponent('job=="a"')}`, { headers: auth }),
      400,
    );
    expect(versions(await everySilence(bob, silencesPath(demo.acme, demo.production)))).toEqual(before);
  });
});
