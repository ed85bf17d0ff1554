import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { receivedAlert } from '../../server/testing/alerts';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { previewSilence, PREVIEW_ALERTS } from './preview-service';
import { readAlertEpoch } from './epoch';
import { storeAlerts } from './service';

const NOW = new Date('2030-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const received = (labels: Record<string, string>, index: number, startsAt: Date, endsAt = at(60)) =>
  receivedAlert(labels, { startsAt, endsAt, index });

await onBothDatabases('a silence preview', 'alerts-preview', () => {
  it('tests the matchers as a silence does, counts every match and lists the first 100 newest first', async () => {
    const { scope } = await newTestProject('Preview');
    // 150 disk alerts over 30 hosts (several alerts share a host), one resolved, one without `team`.
    const alerts = Array.from({ length: 150 }, (_, i) =>
      received({ alertname: `Disk${i % 5}`, instance: `host-${Math.floor(i / 5)}`, team: 'ops' }, i, at(-i)),
    );
    alerts.push(received({ alertname: 'Disk0', instance: 'host-99' }, 150, at(-200)));
    alerts.push(received({ alertname: 'Disk0', instance: 'host-98', team: 'ops' }, 151, at(-300), at(-1)));
    alerts.push(received({ alertname: 'Cpu', instance: 'host-1', team: 'ops' }, 152, at(-1)));
    await storeAlerts(scope, alerts, NOW);

    const disks = await previewSilence(scope, [{ label: 'alertname', op: '=~', value: 'Disk.*' }], NOW);
    expect(disks.total).toBe(151);
    expect(disks.alerts).toHaveLength(PREVIEW_ALERTS);
    expect(disks.alerts.map((a) => a.labels.instance)).toEqual(
      alerts.slice(0, PREVIEW_ALERTS).map((a) => a.labels.instance),
    );
    expect(disks.alerts[0]).toMatchObject({ labels: alerts[0].labels, state: 'firing' });

    // One combination of more than 100 alerts (`team="ops"`: 151 unresolved, one of them at the same start as
    // another): its newest 100 in the list's order, start then fingerprint, newest first.
    const ops = await previewSilence(scope, [{ label: 'team', op: '=~', value: 'o.s' }], NOW);
    const newest = alerts
      .filter((a) => a.labels.team === 'ops' && a.endsAt > NOW)
      .sort((x, y) => y.startsAt.getTime() - x.startsAt.getTime() || (x.fingerprint < y.fingerprint ? 1 : -1));
    expect(ops.total).toBe(newest.length);
    expect(ops.alerts.map((a) => a.fingerprint)).toEqual(newest.slice(0, PREVIEW_ALERTS).map((a) => a.fingerprint));

    // An absent label is "": `team=~"|ops"` matches the alert without it, `team!~""` does not.
    const withEmpty = [
      { label: 'instance', op: '=~' as const, value: 'host-(1|99)' },
      { label: 'team', op: '=~' as const, value: '|ops' },
    ];
    const all = await previewSilence(scope, withEmpty, NOW);
    expect(all.alerts.map((a) => [a.labels.alertname, a.labels.instance])).toEqual([
      ['Cpu', 'host-1'],
      ['Disk0', 'host-1'],
      ['Disk1', 'host-1'],
      ['Disk2', 'host-1'],
      ['Disk3', 'host-1'],
      ['Disk4', 'host-1'],
      ['Disk0', 'host-99'],
    ]);
    const present = await previewSilence(scope, [withEmpty[0], { label: 'team', op: '!~', value: '' }], NOW);
    expect(present.total).toBe(6);

    // An `=` matcher with a regex: both hold.
    const both = await previewSilence(
      scope,
      [
        { label: 'alertname', op: '=', value: 'Disk2' },
        { label: 'instance', op: '=~', value: 'host-[0-4]' },
      ],
      NOW,
    );
    expect(both.alerts.map((a) => a.labels.instance)).toEqual(['host-0', 'host-1', 'host-2', 'host-3', 'host-4']);

    // Values PostgreSQL's array syntax would read otherwise, compared as they are.
    const odd = ['a,"b\\c}{', 'NULL', '', ' x '];
    await storeAlerts(
      scope,
      odd.map((job, i) => received({ alertname: 'Odd', job }, i, at(-i))),
      NOW,
    );
    const anyJob = await previewSilence(scope, [{ label: 'job', op: '=~', value: '.+' }], NOW);
    expect(anyJob.alerts.map((a) => a.labels.job)).toEqual(['a,"b\\c}{', 'NULL', ' x ']);
    const emptyJob = await previewSilence(scope, [{ label: 'job', op: '=~', value: 'NULL|' }], NOW);
    expect(emptyJob.total).toBe(153 - 1 + 2);

    expect(await previewSilence(scope, [{ label: 'alertname', op: '=~', value: 'Net.*' }], NOW)).toEqual({
      total: 0,
      alerts: [],
    });
  });

  it('reuses its read of the label values only while the same read would give the same alerts', async () => {
    const { scope } = await newTestProject('Preview again');
    const host = (n: number, endsAt: Date, endsByTimeout = false) =>
      receivedAlert({ alertname: 'Down', instance: `host-${n}` }, { startsAt: at(-5), endsAt, endsByTimeout });
    const hosts = async (when: Date) => {
      const answer = await previewSilence(scope, [{ label: 'instance', op: '=~', value: 'host-.*' }], when);
      const listed = answer.alerts.map((a) => a.labels.instance).sort();
      expect(answer.total).toBe(listed.length);
      return listed;
    };
    await storeAlerts(scope, [host(1, at(60)), host(2, at(30)), host(3, at(90), true)], NOW);
    expect(await hosts(NOW)).toEqual(['host-1', 'host-2', 'host-3']);

    // A new alert moves the epoch on.
    const epochNow = async () => readAlertEpoch(await getDb(), scope);
    const first = await epochNow();
    expect(first).not.toBeNull();
    await storeAlerts(scope, [host(4, at(60))], NOW);
    const second = await epochNow();
    expect(second).not.toBe(first);
    expect(await hosts(NOW)).toEqual(['host-1', 'host-2', 'host-3', 'host-4']);

    // A resend that pushes an end later leaves it: Prometheus's steady state keeps the read.
    await storeAlerts(scope, [host(1, at(120))], NOW);
    expect(await epochNow()).toBe(second);
    // A start moved earlier (a resend with an earlier start: the merge keeps the earliest) reorders the page: it moves.
    await storeAlerts(scope, [{ ...host(1, at(120)), startsAt: at(-50) }], NOW);
    expect(await epochNow()).not.toBe(second);

    // An end moved earlier (a timeout's end replaced) bumps it: at +15 host-3 has ended, though the read at NOW
    // would hold until +30.
    await storeAlerts(scope, [host(3, at(10), true)], NOW);
    expect(await hosts(at(15))).toEqual(['host-1', 'host-2', 'host-4']);

    // The clock: host-2 ends at +30, the earliest end the last read counted.
    expect(await hosts(at(30))).toEqual(['host-1', 'host-4']);
    // Asked as of a moment before the last read (a request that started earlier): read again.
    expect(await hosts(at(20))).toEqual(['host-1', 'host-2', 'host-4']);

    // Resolved by a post, then firing again: each bumps the epoch.
    await storeAlerts(scope, [host(4, at(21))], at(21));
    expect(await hosts(at(21))).toEqual(['host-1', 'host-2']);
    await storeAlerts(scope, [{ ...host(3, at(50)), startsAt: at(22) }], at(22));
    expect(await hosts(at(22))).toEqual(['host-1', 'host-2', 'host-3']);

    // Deleted (no path of the app deletes an unresolved alert today; the triggers see every writer).
    const db = await getDb();
    await db
      .delete(t.alerts)
      .where(
        and(eq(t.alerts.projectId, scope.projectId), eq(t.alerts.labels, { alertname: 'Down', instance: 'host-1' })),
      );
    expect(await hosts(at(22))).toEqual(['host-2', 'host-3']);
  });
});
