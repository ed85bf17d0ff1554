import { randomBytes, randomUUID } from 'node:crypto';
import { asc, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { receivedAlert, TEST_SOURCE, testPrincipal } from '../../server/testing/alerts';
import { newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { postAlertmanagerSilence } from '../alertmanager/service';
import * as t from '../db/schema';
import { sealSecret } from '../crypto/secret-box';
import { createSilence, expireSilence } from '../silences/lifecycle-service';
import { webhookChannel } from '../webhooks/worker';
import { secretContext } from '../webhooks/service';
import { fingerprintOf } from './fingerprint';
import { followTheClock } from './muting-service';
import { storeAlerts } from './service';

process.env.ENCRYPTION_KEY ??= randomBytes(32).toString('base64');
withEmptyEmbeddedDatabase('alert-notifications');

const source = TEST_SOURCE;
const principal = testPrincipal();
const NOW = new Date(Date.now() + 60_000);
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const received = (labels: Record<string, string>, endsAt?: Date, startsAt = NOW) =>
  receivedAlert(labels, {
    annotations: { summary: 'it broke' },
    generatorUrl: 'http://prometheus.test/graph',
    startsAt,
    endsAt: endsAt ?? new Date(startsAt.getTime() + 5 * 60_000),
    endsByTimeout: endsAt === undefined,
  });

/** An endpoint's row, its signing secret sealed as the service seals it. */
function endpoint(organizationId: string, events: string[], enabled = true) {
  const id = randomUUID();
  const secretBox = sealSecret(`whsec_${'A'.repeat(32)}`, secretContext(id));
  return { id, organizationId, url: 'https://hooks.test/alerts', events, secretBox, enabled };
}

/** A project with one endpoint subscribed to `events`; `sent()` lists what reached its outbox, in order. */
async function projectWithEndpoint(label: string, events = ['alert.*']) {
  const { db, scope } = await newTestProject(label);
  const [hook] = await db.insert(t.webhooks).values(endpoint(scope.organizationId, events)).returning();
  const sent = async (webhookId = hook.id) =>
    (
      await db
        .select()
        .from(t.webhookDeliveries)
        .where(eq(t.webhookDeliveries.webhookId, webhookId))
        .orderBy(asc(t.webhookDeliveries.createdAt), desc(t.webhookDeliveries.eventType))
    ).map(
      (d) => `${d.eventType} ${(d.payload as { alert: { labels: { alertname: string } } }).alert.labels.alertname}`,
    );
  return { db, scope, hook, sent };
}

const silenceBody = (alertname: string, endsAt = at(60), startsAt?: Date) => ({
  comment: `quiet ${alertname}`,
  matchers: [{ label: 'alertname', op: '=' as const, value: alertname }],
  ...(startsAt ? { startsAt: startsAt.toISOString() } : {}),
  endsAt: endsAt.toISOString(),
});

describe('alert.firing and alert.resolved, one per transition', () => {
  it('an alert firing unmuted sends one firing however often it is resent, then one resolved', async () => {
    const { scope, sent } = await projectWithEndpoint('Plain');
    await storeAlerts(scope, [received({ alertname: 'Disk' })], NOW);
    await storeAlerts(scope, [received({ alertname: 'Disk' })], at(1));
    await storeAlerts(scope, [received({ alertname: 'Disk' })], at(2));
    await followTheClock(at(3));
    expect(await sent()).toEqual(['alert.firing Disk']);

    await storeAlerts(scope, [received({ alertname: 'Disk' }, at(4))], at(4));
    await storeAlerts(scope, [received({ alertname: 'Disk' }, at(4))], at(5));
    await followTheClock(at(6));
    expect(await sent()).toEqual(['alert.firing Disk', 'alert.resolved Disk']);
  });

  it('an alert that ends by the clock (no resend) is resolved by the clock job, once, across passes', async () => {
    const { scope, sent } = await projectWithEndpoint('Timeout');
    await storeAlerts(scope, [received({ alertname: 'Gone' })], NOW);
    await followTheClock(at(4));
    expect(await sent()).toEqual(['alert.firing Gone']);
    await followTheClock(at(6));
    await followTheClock(at(7));
    expect(await sent()).toEqual(['alert.firing Gone', 'alert.resolved Gone']);
    // Firing again later is a new firing.
    await storeAlerts(scope, [received({ alertname: 'Gone' }, undefined, at(8))], at(8));
    expect(await sent()).toEqual(['alert.firing Gone', 'alert.resolved Gone', 'alert.firing Gone']);
  });

  it('a resend after the clock ended it, before the job ran, sends the old end, then the new firing', async () => {
    const { scope, sent } = await projectWithEndpoint('Refire');
    await storeAlerts(scope, [received({ alertname: 'Flap' })], NOW);
    await storeAlerts(scope, [received({ alertname: 'Flap' }, undefined, at(7))], at(7));
    expect(await sent()).toEqual(['alert.firing Flap', 'alert.resolved Flap', 'alert.firing Flap']);
    await followTheClock(at(8));
    expect(await sent()).toHaveLength(3);
  });

  it('a muted alert sends nothing; the last muting silence expiring sends its firing', async () => {
    const { scope, sent } = await projectWithEndpoint('Muted');
    const first = await createSilence({ scope, principal, source, now: NOW, body: silenceBody('Cpu') });
    const second = await createSilence({ scope, principal, source, now: NOW, body: silenceBody('Cpu') });
    await storeAlerts(scope, [received({ alertname: 'Cpu' })], NOW);
    await storeAlerts(scope, [received({ alertname: 'Cpu' })], at(1));
    expect(await sent()).toEqual([]);
    await expireSilence({ scope, principal, source, now: at(2), silenceId: first.id, ifMatch: null });
    expect(await sent()).toEqual([]);
    await expireSilence({ scope, principal, source, now: at(2), silenceId: second.id, ifMatch: null });
    expect(await sent()).toEqual(['alert.firing Cpu']);
    await followTheClock(at(3));
    expect(await sent()).toEqual(['alert.firing Cpu']);
  });

  it('a muted alert that resolves sends nothing, even its end', async () => {
    const { scope, sent } = await projectWithEndpoint('Muted end');
    await createSilence({ scope, principal, source, now: NOW, body: silenceBody('Net') });
    await storeAlerts(scope, [received({ alertname: 'Net' })], NOW);
    await storeAlerts(scope, [received({ alertname: 'Net' }, at(1))], at(1));
    await followTheClock(at(2));
    expect(await sent()).toEqual([]);
  });

  it('an active silence edited away from an alert (Alertmanager replaces it) sends its firing, once', async () => {
    const { scope, sent } = await projectWithEndpoint('Edited');
    const silence = await createSilence({ scope, principal, source, now: NOW, body: silenceBody('Mem') });
    await storeAlerts(scope, [received({ alertname: 'Mem' }), received({ alertname: 'Io' })], NOW);
    expect(await sent()).toEqual(['alert.firing Io']);
    const amMatcher = (value: string) => ({ name: 'alertname', value, isRegex: false, isEqual: true });
    const post = (matchers: ReturnType<typeof amMatcher>[], id: string, now: Date) =>
      postAlertmanagerSilence({
        scope,
        principal: { ...principal, name: 'Ada', via: 'session' },
        source,
        authorize: async () => {},
        now,
        body: {
          id,
          matchers,
          startsAt: NOW.toISOString(),
          endsAt: at(60).toISOString(),
          createdBy: 'ada',
          comment: 'x',
        },
      });
    // Both alerts: Mem stays muted through the replacement, Io becomes muted; nothing is sent.
    const both = await post(
      [amMatcher('Mem|Io')].map((m) => ({ ...m, isRegex: true })),
      silence.id,
      at(1),
    );
    expect(await sent()).toEqual(['alert.firing Io']);
    // Io only: Mem is no longer muted by anything.
    await post([amMatcher('Io')], both, at(2));
    expect(await sent()).toEqual(['alert.firing Io', 'alert.firing Mem']);
  });

  it("a silence's end passing by the clock sends the firing from the next pass, once", async () => {
    const { scope, sent } = await projectWithEndpoint('Clock end');
    await createSilence({ scope, principal, source, now: NOW, body: silenceBody('Api', at(2)) });
    await storeAlerts(scope, [received({ alertname: 'Api' }, at(30))], NOW);
    await followTheClock(at(1));
    expect(await sent()).toEqual([]);
    await followTheClock(at(2.1));
    await followTheClock(at(2.2));
    expect(await sent()).toEqual(['alert.firing Api']);
  });

  it('a scheduled silence: firing, muted when it starts (nothing sent), firing again when it ends', async () => {
    const { scope, sent } = await projectWithEndpoint('Scheduled');
    await createSilence({ scope, principal, source, now: NOW, body: silenceBody('Db', at(10), at(5)) });
    await storeAlerts(scope, [received({ alertname: 'Db' }, at(30))], NOW);
    expect(await sent()).toEqual(['alert.firing Db']);
    await followTheClock(at(6));
    expect(await sent()).toEqual(['alert.firing Db']);
    await followTheClock(at(11));
    expect(await sent()).toEqual(['alert.firing Db', 'alert.firing Db']);
    // It was told it fires: its end is sent once.
    await followTheClock(at(31));
    expect(await sent()).toEqual(['alert.firing Db', 'alert.firing Db', 'alert.resolved Db']);
  });

  it('a silence that mutes a notified alert, which then resolves: the end is still sent', async () => {
    const { scope, sent } = await projectWithEndpoint('Told');
    await storeAlerts(scope, [received({ alertname: 'Q' })], NOW);
    await createSilence({ scope, principal, source, now: at(1), body: silenceBody('Q') });
    await storeAlerts(scope, [received({ alertname: 'Q' }, at(2))], at(2));
    expect(await sent()).toEqual(['alert.firing Q', 'alert.resolved Q']);
  });

  it("an audible alert whose firing time an older release's resend cleared still sends its end", async () => {
    const { db, scope, sent } = await projectWithEndpoint('Roll');
    await storeAlerts(scope, [received({ alertname: 'Rolled' })], NOW);
    await db.update(t.alerts).set({ firingNotifiedAt: null }).where(eq(t.alerts.projectId, scope.projectId));
    await storeAlerts(scope, [received({ alertname: 'Rolled' }, at(1))], at(1));
    expect(await sent()).toEqual(['alert.firing Rolled', 'alert.resolved Rolled']);
  });

  it('each endpoint gets what it subscribed to; one message id per transition, shared by endpoints', async () => {
    const { db, scope, hook, sent } = await projectWithEndpoint('Endpoints', ['*']);
    const add = async (events: string[], enabled = true) =>
      (
        await db
          .insert(t.webhooks)
          .values(endpoint(scope.organizationId, events, enabled))
          .returning()
      )[0].id;
    const resolvedOnly = await add(['alert.resolved']);
    const keys = await add(['api_key.*']);
    const disabled = await add(['alert.*'], false);
    await storeAlerts(scope, [received({ alertname: 'A' }), received({ alertname: 'B' })], NOW);
    await storeAlerts(scope, [received({ alertname: 'A' }, at(1))], at(1));
    expect((await sent()).sort()).toEqual(['alert.firing A', 'alert.firing B', 'alert.resolved A']);
    expect(await sent(resolvedOnly)).toEqual(['alert.resolved A']);
    expect(await sent(keys)).toEqual([]);
    expect(await sent(disabled)).toEqual([]);

    const rows = await db
      .select()
      .from(t.webhookDeliveries)
      .where(eq(t.webhookDeliveries.organizationId, scope.organizationId));
    const ids = (webhookId: string) => rows.filter((r) => r.webhookId === webhookId).map((r) => r.messageId);
    expect(new Set(ids(hook.id)).size).toBe(3);
    expect(ids(hook.id)).toEqual(expect.arrayContaining(ids(resolvedOnly)));
  });

  it('the body is {type, timestamp, data: {alert, projectId}}, stamped when the transition was decided', async () => {
    const { scope, hook } = await projectWithEndpoint('Body');
    await storeAlerts(scope, [received({ alertname: 'Body', job: 'api' })], NOW);
    const claimed = (await webhookChannel.claim(100)).filter((d) => d.webhookId === hook.id);
    expect(claimed).toHaveLength(1);
    expect(JSON.parse(claimed[0].body)).toEqual({
      type: 'alert.firing',
      timestamp: NOW.toISOString(),
      data: {
        projectId: scope.projectId,
        alert: {
          fingerprint: fingerprintOf({ alertname: 'Body', job: 'api' }),
          labels: { alertname: 'Body', job: 'api' },
          annotations: { summary: 'it broke' },
          startsAt: NOW.toISOString(),
          endsAt: at(5).toISOString(),
          updatedAt: NOW.toISOString(),
          generatorURL: 'http://prometheus.test/graph',
          state: 'firing',
          silencedBy: [],
        },
      },
    });
  });
});
