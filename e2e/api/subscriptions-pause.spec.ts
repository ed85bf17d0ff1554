import { bearer, expect, expectError, loadDemo, sessionFor, test } from '../fixtures';
import { auditEventsAbout } from '../support/audit';
import { loadDemoSubs, readSub, subPath, type DemoSubs, type Sub } from '../support/subscriptions';

let subs: DemoSubs;

test.beforeAll(async () => {
  subs = await loadDemoSubs(await loadDemo());
});

/** Puts a demo subscription back in its state, as ada, whatever a test did to it. */
async function restoreState(sub: Sub) {
  const ada = await sessionFor('ada');
  const res = await ada.post(`${subPath(sub)}/${sub.state === 'paused' ? 'pause' : 'resume'}`);
  expect(res.status()).toBe(200);
  await ada.dispose();
}

test.describe('pause and resume', () => {
  test('bob pauses the active https subscription and resumes it; repeating either changes nothing', async ({ as }) => {
    const bob = await as('bob');
    const before = subs.https;
    expect(before.state).toBe('active');
    try {
      const paused = await bob.post(`${subPath(before)}/pause`);
      expect(paused.status()).toBe(200);
      const afterPause = (await paused.json()) as Sub;
      expect(afterPause).toEqual({ ...before, state: 'paused', updatedAt: expect.any(String) });
      expect(afterPause.updatedAt > before.updatedAt).toBe(true);
      expect(await readSub(bob, before)).toEqual(afterPause);

      const again = await bob.post(`${subPath(before)}/pause`);
      expect(again.status()).toBe(200);
      expect(await again.json()).toEqual(afterPause);

      const resumed = (await (await bob.post(`${subPath(before)}/resume`)).json()) as Sub;
      expect(resumed).toEqual({ ...before, state: 'active', updatedAt: expect.any(String) });
      expect(resumed.updatedAt > afterPause.updatedAt).toBe(true);
      const resumedAgain = await bob.post(`${subPath(before)}/resume`);
      expect(resumedAgain.status()).toBe(200);
      expect(await resumedAgain.json()).toEqual(resumed);
    } finally {
      await restoreState(before);
    }
  });

  test('the deploy bot (QueuesEditor on Production) may, with its API key; a body is not needed', async ({
    fixtures,
  }) => {
    const bot = await bearer(fixtures.keys.deployBot);
    try {
      const res = await bot.post(`${subPath(subs.workflow)}/pause`);
      expect(res.status()).toBe(200);
      expect(((await res.json()) as Sub).state).toBe('paused');
    } finally {
      await restoreState(subs.workflow);
      await bot.dispose();
    }
  });

  test('who may: cy 403, bob on Staging 403, gil and unknown ids 404; nothing changes', async ({ as, demo }) => {
    const cy = await as('cy');
    const bob = await as('bob');
    const gil = await as('gil');
    const before = [await readSub(cy, subs.https), await readSub(cy, subs.staging)];
    for (const verb of ['pause', 'resume']) {
      await expectError(await cy.post(`${subPath(subs.https)}/${verb}`), 403, 'access_denied');
      await expectError(await bob.post(`${subPath(subs.staging)}/${verb}`), 403, 'access_denied');
      await expectError(await gil.post(`${subPath(subs.https)}/${verb}`), 404, 'not_found');
      await expectError(
        await gil.post(
          `${subPath({ ...subs.https, organizationId: demo.globex, projectId: demo.globexProject })}/${verb}`,
        ),
        404,
        'not_found',
      );
      const unknown = { ...subs.https, id: '00000000-0000-4000-8000-000000000000' };
      await expectError(await bob.post(`${subPath(unknown)}/${verb}`), 404, 'not_found');
      await expectError(await bob.post(`${subPath({ ...subs.https, id: 'nope' })}/${verb}`), 404, 'not_found');
    }
    for (const sub of before) expect(await readSub(cy, sub)).toEqual(sub);
  });
});

test.describe('audit events of pause and resume', () => {
  test('one event per real change; a pause of a paused subscription writes none', async ({ as }) => {
    const bob = await as('bob');
    const ada = await as('ada');
    const sub = subs.failing;
    expect(sub.state).toBe('paused');
    const before = (await auditEventsAbout(ada, sub.organizationId, sub.id)).length;
    try {
      expect((await bob.post(`${subPath(sub)}/pause`)).status()).toBe(200);
      expect((await bob.post(`${subPath(sub)}/resume`)).status()).toBe(200);
      expect((await bob.post(`${subPath(sub)}/resume`)).status()).toBe(200);
      expect((await bob.post(`${subPath(sub)}/pause`)).status()).toBe(200);
      const events = (await auditEventsAbout(ada, sub.organizationId, sub.id)).slice(before);
      expect(events.map((e) => e.action)).toEqual(['subscription.resumed', 'subscription.paused']);
      expect(events[0]).toMatchObject({
        actor: { type: 'user', name: 'Bob Builder', via: 'session' },
        target: { type: 'subscription', id: sub.id, name: sub.slug },
        projectId: sub.projectId,
        changes: [{ field: 'state', from: 'paused', to: 'active' }],
      });
    } finally {
      await restoreState(sub);
    }
  });
});
