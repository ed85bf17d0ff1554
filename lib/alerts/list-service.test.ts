import { expect, it } from 'vitest';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { SYSTEM_ACTOR } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { createSilence } from '../silences/lifecycle-service';
import { fingerprintOf } from './fingerprint';
import { listAlerts } from './list-service';
import type { ReceivedAlert } from './schema';
import { storeAlerts } from './service';

const source: AuditSource = { actor: SYSTEM_ACTOR, context: { requestId: 'req_1', ip: null, userAgent: null } };
const principal = { type: 'user' as const, id: crypto.randomUUID() };
const NOW = new Date('2030-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const received = (labels: Record<string, string>, index: number, startsAt: Date, endsAt = at(60)): ReceivedAlert => ({
  labels,
  annotations: { summary: `${labels.alertname} on ${labels.instance}` },
  generatorUrl: '',
  startsAt,
  endsAt,
  endsByTimeout: false,
  fingerprint: fingerprintOf(labels),
  sizeBytes: 10,
  index,
});

await onBothDatabases('the alerts list', 'alerts-list', () => {
  it('pages newest first through states, filters and a search, with the silences muting each alert', async () => {
    const { scope } = await newTestProject('List');
    const alerts = Array.from({ length: 12 }, (_, i) =>
      received({ alertname: i % 2 ? 'Disk' : 'Cpu', instance: `host-${i}` }, i, at(-i)),
    );
    alerts.push(received({ alertname: 'Disk', instance: 'host-old' }, 12, at(-100), at(-1)));
    await storeAlerts(scope, alerts, at(-0.5));
    const silence = await createSilence({
      scope,
      principal,
      source,
      now: NOW,
      body: {
        comment: 'one host',
        matchers: [{ label: 'instance', op: '=', value: 'host-3' }],
        endsAt: at(30).toISOString(),
      },
    });
    const hosts = (page: { items: { labels: Record<string, string> }[] }) => page.items.map((a) => a.labels.instance);

    const first = await listAlerts(scope, { limit: 5, filters: [] }, NOW);
    expect(hosts(first)).toEqual(['host-0', 'host-1', 'host-2', 'host-3', 'host-4']);
    expect(first.items[3]).toMatchObject({
      state: 'silenced',
      silencedBy: [silence.id],
      startsAt: at(-3).toISOString(),
    });
    expect(first.items[0]).toMatchObject({
      state: 'firing',
      silencedBy: [],
      annotations: { summary: 'Cpu on host-0' },
    });
    const second = await listAlerts(scope, { limit: 5, cursor: first.nextCursor!, filters: [] }, NOW);
    expect(hosts(second)).toEqual(['host-5', 'host-6', 'host-7', 'host-8', 'host-9']);
    const last = await listAlerts(scope, { limit: 5, cursor: second.nextCursor!, filters: [] }, NOW);
    expect([hosts(last), last.nextCursor]).toEqual([['host-10', 'host-11'], null]);

    const disk = [{ label: 'alertname', op: '=' as const, value: 'Disk' }];
    const disks = await listAlerts(scope, { limit: 3, filters: disk }, NOW);
    expect(hosts(disks)).toEqual(['host-1', 'host-3', 'host-5']);
    const moreDisks = await listAlerts(scope, { limit: 3, cursor: disks.nextCursor!, filters: disk }, NOW);
    expect(hosts(moreDisks)).toEqual(['host-7', 'host-9', 'host-11']);
    const regex = [...disk, { label: 'instance', op: '=~' as const, value: 'host-1.*' }];
    expect(hosts(await listAlerts(scope, { limit: 3, filters: regex }, NOW))).toEqual(['host-1', 'host-11']);

    expect(hosts(await listAlerts(scope, { limit: 5, state: ['silenced'], filters: [] }, NOW))).toEqual(['host-3']);
    expect(hosts(await listAlerts(scope, { limit: 5, state: ['resolved'], filters: [] }, NOW))).toEqual(['host-old']);
    const firing = await listAlerts(scope, { limit: 20, state: ['firing'], filters: [] }, NOW);
    expect(firing.items).toHaveLength(11);
    const all = await listAlerts(scope, { limit: 20, state: ['resolved', 'firing', 'silenced'], filters: disk }, NOW);
    expect(hosts(all)).toEqual(['host-1', 'host-3', 'host-5', 'host-7', 'host-9', 'host-11', 'host-old']);
    expect(hosts(await listAlerts(scope, { limit: 5, q: 'CPU ON HOST-1', filters: [] }, NOW))).toEqual(['host-10']);
  });
});
