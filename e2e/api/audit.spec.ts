import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { bearer, expect, expectError, sessionFor, signIn, test } from '../fixtures';
import { botIdOf, createKey, createScimToken, oauthTokens, scimPatch, userIdOf } from '../support/api-keys';
import { auditEvents, auditPath, eventsAfter, newestSeq, verifyChain, type AuditEvent } from '../support/audit';
import { baseURL } from '../support/env';
import { findSilence, productionSilences } from '../support/silences';
import { loadDemoSubs, readSub, subPath } from '../support/subscriptions';

// Each change through its real route writes exactly one event per thing it changed, in its organization.
// Principals destroyed here (ria, lea, sue, audit-bot) exist for this file only (e2e/support/prepare-db.ts).

const only = (events: AuditEvent[], action: string) => {
  expect(events.map((e) => e.action)).toEqual([action]);
  return events[0];
};

const user = (id: string, via: string) => expect.objectContaining({ type: 'user', id, via });

test.describe('what is audited', () => {
  test('API key created and revoked by hand: the actor, its credential prefix, target and reason', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const bob = await as('bob');
    let mark = await newestSeq(ada, demo.acme);
    const one = await createKey(bob, demo.acme, { name: 'audit one' });
    const two = await createKey(bob, demo.acme, { name: 'audit two' });
    const created = await eventsAfter(ada, demo.acme, mark);
    expect(created.map((e) => [e.action, e.target])).toEqual([
      ['api_key.created', { type: 'api_key', id: one.apiKey.id, name: `audit one (${one.apiKey.prefix}…)` }],
      ['api_key.created', { type: 'api_key', id: two.apiKey.id, name: `audit two (${two.apiKey.prefix}…)` }],
    ]);
    expect(created[0].actor).toEqual({
      type: 'user',
      id: demo.users.bob,
      name: 'Bob Builder',
      via: 'session',
      credential: null,
    });
    expect(created[0].context).toMatchObject({ requestId: expect.stringMatching(/^req_/), ip: expect.any(String) });
    expect(created[1].seq).toBe(created[0].seq + 1);

    mark = created[1].seq;
    const withKey = await bearer(one.secret);
    expect((await withKey.delete(`/v1/organizations/${demo.acme}/api-keys/${two.apiKey.id}`)).status()).toBe(204);
    const revoked = only(await eventsAfter(ada, demo.acme, mark), 'api_key.revoked');
    expect(revoked).toMatchObject({
      actor: { type: 'user', id: demo.users.bob, via: 'api_key', credential: `${one.apiKey.prefix}…` },
      target: { type: 'api_key', id: two.apiKey.id },
      reason: 'revoked',
      changes: [],
      projectId: null,
    });
    // A refused revocation (already revoked: 404; cy on bob's key: 403) writes nothing.
    await expectError(
      await withKey.delete(`/v1/organizations/${demo.acme}/api-keys/${two.apiKey.id}`),
      404,
      'not_found',
    );
    const cy = await as('cy');
    await expectError(
      await cy.delete(`/v1/organizations/${demo.acme}/api-keys/${one.apiKey.id}`),
      403,
      'access_denied',
    );
    expect(await eventsAfter(ada, demo.acme, revoked.seq)).toEqual([]);
    await withKey.dispose();
  });

  test('member removed: one member.removed and one api_key.revoked per key, with the cause', async ({ as, demo }) => {
    const ada = await as('ada');
    const ria = await sessionFor('ria@acme.test');
    const riaId = await userIdOf(ada, demo.acme, 'ria@acme.test');
    const key = await createKey(ria, demo.acme, { name: 'ria key' });
    const mark = await newestSeq(ada, demo.acme);
    await expectError(
      await (await as('cy')).delete(`/v1/organizations/${demo.acme}/members/${riaId}`),
      403,
      'access_denied',
    );
    expect(await eventsAfter(ada, demo.acme, mark)).toEqual([]);
    expect((await ada.delete(`/v1/organizations/${demo.acme}/members/${riaId}`)).status()).toBe(204);
    const events = await eventsAfter(ada, demo.acme, mark);
    expect(events.map((e) => [e.action, e.target.id, e.reason])).toEqual([
      ['member.removed', riaId, null],
      ['api_key.revoked', key.apiKey.id, 'member_removed'],
    ]);
    for (const e of events) expect(e.actor).toEqual(user(demo.users.ada, 'session'));
    expect(events[0].target.name).toBe('Ria Removed <ria@acme.test>');
    await ria.dispose();
  });

  test('member left: the member is the actor, and their keys are revoked with reason member_left', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const lea = await sessionFor('lea@acme.test');
    const leaId = await userIdOf(ada, demo.acme, 'lea@acme.test');
    const key = await createKey(lea, demo.acme, { name: 'lea key' });
    const mark = await newestSeq(ada, demo.acme);
    expect((await lea.post(`/v1/organizations/${demo.acme}/members/me/leave`)).status()).toBe(204);
    const events = await eventsAfter(ada, demo.acme, mark);
    expect(events.map((e) => [e.action, e.target.id, e.reason])).toEqual([
      ['member.left', leaId, null],
      ['api_key.revoked', key.apiKey.id, 'member_left'],
    ]);
    for (const e of events) expect(e.actor).toEqual(user(leaId, 'session'));
    expect(events[0].target.type).toBe('user');
    await lea.dispose();
  });

  test('bot deleted: bot.deleted and its keys revoked with reason bot_deleted', async ({ as, demo }) => {
    const gil = await as('gil');
    const botId = await botIdOf(gil, demo.globex, 'audit-bot');
    const key = await createKey(gil, demo.globex, { name: 'audit-bot key', botId });
    const mark = await newestSeq(gil, demo.globex);
    expect((await gil.delete(`/v1/organizations/${demo.globex}/bots/${botId}`)).status()).toBe(204);
    const events = await eventsAfter(gil, demo.globex, mark);
    expect(events.map((e) => [e.action, e.target.id, e.reason])).toEqual([
      ['bot.deleted', botId, null],
      ['api_key.revoked', key.apiKey.id, 'bot_deleted'],
    ]);
    expect(events[0].target.name).toBe('audit-bot');
  });

  test('SCIM: token created; suspension and reactivation in every organization of the user; repeats write nothing', async ({
    as,
    demo,
    request,
  }) => {
    const ada = await as('ada');
    const ivy = await sessionFor('ivy@initech.test');
    const initech = ((await (await ivy.get('/v1/organizations')).json()) as { items: { id: string }[] }).items[0].id;
    const sue = await sessionFor('sue@acme.test');
    const sueId = await userIdOf(ada, demo.acme, 'sue@acme.test');
    const key = await createKey(sue, demo.acme, { name: 'sue key' });

    let mark = await newestSeq(ada, demo.acme);
    const token = await createScimToken(ada, demo.acme);
    const created = only(await eventsAfter(ada, demo.acme, mark), 'scim_token.created');
    expect(created.target).toMatchObject({ type: 'scim_token', name: `${token.slice(0, 9)}…` });

    mark = created.seq;
    const initechMark = await newestSeq(ivy, initech);
    const suspend = await scimPatch(request, token, sueId, [{ op: 'Replace', path: 'active', value: 'False' }]);
    expect(suspend.status(), await suspend.text()).toBe(200);
    const idp = { type: 'identity_provider', id: created.target.id, via: 'scim', credential: `${token.slice(0, 9)}…` };
    const inAcme = await eventsAfter(ada, demo.acme, mark);
    expect(inAcme.map((e) => [e.action, e.target.id, e.reason])).toEqual([
      ['api_key.revoked', key.apiKey.id, 'scim_suspended'],
      ['user.suspended', sueId, null],
    ]);
    for (const e of inAcme) expect(e.actor).toMatchObject(idp);
    expect(only(await eventsAfter(ivy, initech, initechMark), 'user.suspended').target.id).toBe(sueId);

    mark = inAcme[1].seq;
    expect((await scimPatch(request, token, sueId, [{ op: 'replace', value: { active: false } }])).status()).toBe(200);
    expect(await eventsAfter(ada, demo.acme, mark)).toEqual([]);

    expect((await scimPatch(request, token, sueId, [{ op: 'replace', path: 'active', value: true }])).status()).toBe(
      200,
    );
    expect(only(await eventsAfter(ada, demo.acme, mark), 'user.reactivated').actor).toMatchObject(idp);
    expect((await eventsAfter(ivy, initech, initechMark)).map((e) => e.action)).toEqual([
      'user.suspended',
      'user.reactivated',
    ]);
    await Promise.all([ivy.dispose(), sue.dispose()]);
  });

  test('subscription updated: the fast batchSize path and the target merge record their changes; no-ops and refusals none', async ({
    as,
    demo,
    fixtures,
  }) => {
    const ada = await as('ada');
    const bob = await as('bob');
    const subs = await loadDemoSubs(demo);
    const sub = await readSub(ada, subs.https);
    const bot = await bearer(fixtures.keys.deployBot);
    const prefix = fixtures.keys.deployBot.slice(0, 8);
    let mark = await newestSeq(ada, demo.acme);

    const nextSize = sub.batchSize === 10 ? 9 : sub.batchSize + 1;
    expect((await bot.patch(subPath(sub), { data: { batchSize: nextSize } })).status()).toBe(200);
    const fast = only(await eventsAfter(ada, demo.acme, mark), 'subscription.updated');
    expect(fast).toMatchObject({
      actor: { type: 'bot', id: demo.deployBot, name: 'deploy-bot', via: 'api_key', credential: `${prefix}…` },
      target: { type: 'subscription', id: sub.id, name: sub.slug },
      projectId: demo.production,
      changes: [{ field: 'batchSize', from: sub.batchSize, to: nextSize }],
    });

    mark = fast.seq;
    const url = `https://audit.example.com/hook/${Date.now()}`;
    expect((await bob.patch(subPath(sub), { data: { target: { kind: 'https', url } } })).status()).toBe(200);
    const merged = only(await eventsAfter(ada, demo.acme, mark), 'subscription.updated');
    expect(merged.changes).toEqual([{ field: 'target.url', from: (sub.target as { url: string }).url, to: url }]);
    expect(merged.actor).toEqual(user(demo.users.bob, 'session'));

    mark = merged.seq;
    expect((await bob.patch(subPath(sub), { data: {} })).status()).toBe(200);
    expect((await bob.patch(subPath(sub), { data: { batchSize: nextSize } })).status()).toBe(200);
    expect((await bob.patch(subPath(sub), { data: { target: { kind: 'https', url } } })).status()).toBe(200);
    await expectError(await bob.patch(subPath(sub), { data: { batchSize: 11 } }), 400, 'invalid_request', [
      'batchSize',
    ]);
    await expectError(await (await as('cy')).patch(subPath(sub), { data: { batchSize: 2 } }), 403, 'access_denied');
    expect(await eventsAfter(ada, demo.acme, mark)).toEqual([]);

    // Restore, which is a change like any other.
    const restore = { batchSize: sub.batchSize, target: sub.target };
    expect((await ada.patch(subPath(sub), { data: restore })).status()).toBe(200);
    expect((await eventsAfter(ada, demo.acme, mark)).map((e) => e.changes.map((c) => c.field))).toEqual([
      ['batchSize', 'target.url'],
    ]);
    await bot.dispose();
  });

  test('silence updated: the comment fast path by OAuth token and a matcher change, with before and after', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const oauth = await bearer(oauthTokens().bob);
    const silence = await findSilence(ada, demo, 'active edits');
    const path = `${productionSilences(demo)}/${silence.id}`;
    let mark = await newestSeq(ada, demo.acme);
    const comment = `audited ${Date.now()}`;
    const res = await oauth.patch(path, { data: { comment } });
    expect(res.status(), await res.text()).toBe(200);
    const fast = only(await eventsAfter(ada, demo.acme, mark), 'silence.updated');
    expect(fast).toMatchObject({
      actor: { type: 'user', id: demo.users.bob, via: 'oauth', credential: null },
      target: { type: 'silence', id: silence.id, name: silence.slug },
      projectId: demo.production,
      changes: [{ field: 'comment', from: silence.comment, to: comment }],
    });

    mark = fast.seq;
    const etag = (await ada.get(path)).headers().etag;
    const endsAt = new Date(Date.parse(silence.endsAt) + 3_600_000).toISOString();
    const widened = await ada.patch(path, { data: { endsAt }, headers: { 'If-Match': etag } });
    expect(widened.status(), await widened.text()).toBe(200);
    const full = only(await eventsAfter(ada, demo.acme, mark), 'silence.updated');
    expect(full.changes).toEqual([{ field: 'endsAt', from: silence.endsAt, to: endsAt }]);

    mark = full.seq;
    await expectError(
      await ada.patch(path, { data: { comment: 'stale' }, headers: { 'If-Match': etag } }),
      412,
      'precondition_failed',
    );
    expect((await ada.patch(path, { data: { comment } })).status()).toBe(200);
    expect(await eventsAfter(ada, demo.acme, mark)).toEqual([]);
    expect((await ada.patch(path, { data: { endsAt: silence.endsAt, comment: silence.comment } })).status()).toBe(200);
    await oauth.dispose();
  });

  test('device login approved and denied, OAuth login revoked by the user and by the service on refresh reuse', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const anonymous = await playwrightRequest.newContext({ baseURL });
    const code = async () =>
      (await (await anonymous.post('/oauth/device/code', { form: { client_id: 'svc-cli' } })).json()) as {
        device_code: string;
        user_code: string;
      };
    let mark = await newestSeq(ada, demo.acme);
    const denied = await code();
    expect((await ada.post(`/v1/device-authorizations/${denied.user_code}/deny`)).status()).toBe(200);
    const approved = await code();
    expect((await ada.post(`/v1/device-authorizations/${approved.user_code}/approve`)).status()).toBe(200);
    const decided = await eventsAfter(ada, demo.acme, mark);
    expect(decided.map((e) => [e.action, e.target.type, e.target.name])).toEqual([
      ['device_login.denied', 'device_login', 'svc CLI'],
      ['device_login.approved', 'device_login', 'svc CLI'],
    ]);
    for (const e of decided) expect(e.actor).toEqual(user(demo.users.ada, 'session'));

    const tokens = (await (
      await anonymous.post('/oauth/token', {
        form: {
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          device_code: approved.device_code,
          client_id: 'svc-cli',
        },
      })
    ).json()) as { access_token: string; refresh_token: string };
    mark = decided[1].seq;
    const refresh = (refreshToken: string) =>
      anonymous.post('/oauth/token', {
        form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'svc-cli' },
      });
    const rotated = (await (await refresh(tokens.refresh_token)).json()) as { refresh_token: string };
    expect(await eventsAfter(ada, demo.acme, mark)).toEqual([]); // a rotation ends nothing
    expect((await refresh(tokens.refresh_token)).status()).toBe(400); // reuse: the service ends the login
    const reuse = only(await eventsAfter(ada, demo.acme, mark), 'oauth_login.revoked');
    expect(reuse).toMatchObject({ actor: { type: 'system', id: null }, reason: 'refresh_token_reused' });

    const second = await code();
    await ada.post(`/v1/device-authorizations/${second.user_code}/approve`);
    const pair = (await (
      await anonymous.post('/oauth/token', {
        form: {
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          device_code: second.device_code,
          client_id: 'svc-cli',
        },
      })
    ).json()) as { refresh_token: string };
    mark = await newestSeq(ada, demo.acme);
    const revoke = () => anonymous.post('/oauth/revoke', { form: { token: pair.refresh_token, client_id: 'svc-cli' } });
    expect((await revoke()).status()).toBe(200);
    const revoked = only(await eventsAfter(ada, demo.acme, mark), 'oauth_login.revoked');
    expect(revoked).toMatchObject({
      actor: user(demo.users.ada, 'oauth'),
      target: { type: 'oauth_login' },
      reason: null,
    });
    expect((await revoke()).status()).toBe(200);
    expect(await eventsAfter(ada, demo.acme, revoked.seq)).toEqual([]);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    await anonymous.dispose();
  });

  test('sign-in succeeded and failed for a known email, never the password; an unknown email writes nothing', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const mark = await newestSeq(ada, demo.acme);
    const ctx = await playwrightRequest.newContext({ baseURL });
    const wrong = 'not-the-password-7f3a9c';
    await signIn(ctx, 'cy@acme.test', wrong);
    await signIn(ctx, 'nobody@acme.test', wrong);
    await signIn(ctx, 'cy@acme.test');
    const events = await eventsAfter(ada, demo.acme, mark, { signIns: true });
    expect(events.map((e) => [e.action, e.target.id, e.reason])).toEqual([
      ['sign_in.failed', demo.users.cy, 'wrong_password'],
      ['sign_in.succeeded', demo.users.cy, 'password'],
    ]);
    expect(JSON.stringify(events)).not.toContain(wrong);
    await ctx.dispose();
  });
});

test.describe('reading the log', () => {
  test('auditLog.read: OrganizationAdmin and Auditor read; others 403; other organizations 404', async ({
    as,
    demo,
  }) => {
    const aud = await sessionFor('aud@acme.test');
    expect((await aud.get(auditPath(demo.acme))).status()).toBe(200);
    await expectError(await aud.get(`/v1/organizations/${demo.acme}/members`), 403, 'access_denied');
    const cy = await as('cy');
    for (const path of ['', '/export', '/verify'])
      await expectError(await cy.get(`${auditPath(demo.acme)}${path}`), 403, 'access_denied');
    const gil = await as('gil');
    await expectError(await gil.get(auditPath(demo.acme)), 404, 'not_found');
    const globexIds = new Set((await auditEvents(gil, demo.globex)).map((e) => e.id));
    for (const e of await auditEvents(aud, demo.acme)) expect(globexIds.has(e.id)).toBe(false);
    await aud.dispose();
  });

  test('filters, keyset pages newest first, and bad queries 400', async ({ as, demo }) => {
    const ada = await as('ada');
    const bob = await as('bob');
    const key = await createKey(bob, demo.acme, { name: 'filter me' });
    await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${key.apiKey.id}`);

    const byTarget = await auditEvents(ada, demo.acme, `&targetId=${key.apiKey.id}`);
    expect(byTarget.map((e) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
    const keyEvents = await auditEvents(ada, demo.acme, '&action=api_key.*');
    expect(keyEvents.length).toBeGreaterThanOrEqual(2);
    expect(keyEvents.every((e) => e.action.startsWith('api_key.'))).toBe(true);
    const two = await auditEvents(ada, demo.acme, '&action=api_key.created&action=member.removed');
    expect(new Set(two.map((e) => e.action))).toEqual(new Set(['api_key.created', 'member.removed']));
    expect(
      (await auditEvents(ada, demo.acme, `&actor=${demo.users.bob}&targetType=api_key`)).every(
        (e) => e.actor.id === demo.users.bob,
      ),
    ).toBe(true);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await auditEvents(ada, demo.acme, `&since=${future}`)).toEqual([]);
    expect(
      (await auditEvents(ada, demo.acme, `&until=${future}&projectId=${demo.production}`)).every(
        (e) => e.projectId === demo.production,
      ),
    ).toBe(true);

    const all = await auditEvents(ada, demo.acme);
    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 100; page++) {
      const res = await ada.get(`${auditPath(demo.acme)}?limit=7${cursor}`);
      const body = (await res.json()) as { items: AuditEvent[]; nextCursor: string | null };
      seen.push(...body.items.map((e) => e.seq));
      if (!body.nextCursor) break;
      cursor = `&cursor=${body.nextCursor}`;
    }
    expect(seen.slice(0, all.length)).toEqual(all.map((e) => e.seq));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(seen.length);

    await expectError(await ada.get(`${auditPath(demo.acme)}?cursor=nope`), 400, 'invalid_cursor');
    await expectError(await ada.get(`${auditPath(demo.acme)}?action=api_key.exploded`), 400, 'invalid_request', [
      'action.0',
    ]);
    await expectError(await ada.get(`${auditPath(demo.acme)}?since=yesterday&limit=0`), 400, 'invalid_request', [
      'since',
      'limit',
    ]);
  });

  test('export streams the filter as NDJSON or CSV; verify walks the chain', async ({ as, demo }) => {
    const ada = await as('ada');
    const listed = await auditEvents(ada, demo.acme, '&action=api_key.*');
    const ndjson = await ada.get(`${auditPath(demo.acme)}/export?format=ndjson&action=api_key.*`);
    expect(ndjson.status()).toBe(200);
    expect(ndjson.headers()['content-type']).toContain('application/x-ndjson');
    const lines = (await ndjson.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEvent);
    expect(lines.slice(0, listed.length)).toEqual(listed);

    const csv = await ada.get(`${auditPath(demo.acme)}/export?format=csv&action=api_key.*`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0].split(',').slice(0, 4)).toEqual(['seq', 'id', 'occurredAt', 'action']);
    expect(rows.length).toBe(lines.length + 1);
    await expectError(await ada.get(`${auditPath(demo.acme)}/export?format=xml`), 400, 'invalid_request', ['format']);

    const verified = await verifyChain(ada, demo.acme);
    expect(verified.firstBrokenSeq).toBeNull();
    expect(verified.verified).toBe(Math.max(...(await auditEvents(ada, demo.acme)).map((e) => e.seq)));
  });

  test('the operations are in the OpenAPI document', async ({ request }) => {
    const doc = (await (await request.get('/v1/openapi.json')).json()) as { paths: Record<string, object> };
    for (const path of ['', '/export', '/verify'])
      expect(doc.paths[`/v1/organizations/{orgId}/audit-events${path}`]).toHaveProperty('get');
  });
});

export type { APIRequestContext };
