import { expect, it } from 'vitest';
import { receivedAlert } from '../../server/testing/alerts';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { previewSilence, PREVIEW_ALERTS } from './preview-service';
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
});
