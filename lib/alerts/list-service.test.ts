import { expect, it } from 'vitest';
import type { Matcher } from '../silences/matchers';
import { createTestSilence, receivedAlert } from '../../server/testing/alerts';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { listAlerts } from './list-service';
import { storeAlerts } from './service';

const NOW = new Date('2030-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const received = (labels: Record<string, string>, index: number, startsAt: Date, endsAt = at(60)) =>
  receivedAlert(labels, {
    annotations: { summary: `${labels.alertname} on ${labels.instance}` },
    startsAt,
    endsAt,
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
    const silence = await createTestSilence(scope, NOW, {
      comment: 'one host',
      matchers: [{ label: 'instance', op: '=', value: 'host-3' }],
      endsAt: at(30).toISOString(),
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

  it('pages an `alertname` filter (read through its own index) exactly as the same filter tested in the app', async () => {
    const { scope } = await newTestProject('List by name');
    const names = ['Disk', 'Cpu', 'Disk', '', 'Disk', 'Disk', 'Disk', 'Cpu'];
    // Pairs start together: the first page of `Disk` ends between host-4 and host-5, which only fingerprints order.
    const alerts = Array.from({ length: 16 }, (_, i) => {
      const name = names[i % names.length];
      const labels: Record<string, string> = name
        ? { alertname: name, instance: `host-${i}` }
        : { instance: `host-${i}` };
      return received(labels, i, at(-Math.floor(i / 2)), i === 14 ? at(-1) : at(60));
    });
    await storeAlerts(scope, alerts, at(-0.5));
    const everyPage = async (filters: Matcher[], state?: ('firing' | 'silenced' | 'resolved')[]) => {
      const pages: { hosts: string[]; nextCursor: string | null }[] = [];
      let cursor: string | undefined;
      do {
        const page = await listAlerts(scope, { limit: 3, cursor, state, filters }, NOW);
        pages.push({ hosts: page.items.map((a) => a.labels.instance), nextCursor: page.nextCursor });
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return pages;
    };
    // `=~` with a literal is the same test, never sent to the database: the reference.
    const asRegex = (filters: Matcher[]) => filters.map((m) => (m.op === '=' ? { ...m, op: '=~' as const } : m));
    const cases: Matcher[][] = [
      [{ label: 'alertname', op: '=', value: 'Disk' }],
      [{ label: 'alertname', op: '=', value: '' }],
      [
        { label: 'alertname', op: '=', value: 'Disk' },
        { label: 'instance', op: '=', value: 'host-4' },
      ],
      [
        { label: 'alertname', op: '=', value: 'Cpu' },
        { label: 'alertname', op: '=', value: 'Disk' },
      ],
      [{ label: 'alertname', op: '=', value: 'Nothing' }],
    ];
    for (const filters of cases) {
      for (const state of [undefined, ['resolved', 'firing', 'silenced'] as const]) {
        const pages = await everyPage(filters, state && [...state]);
        expect(pages).toEqual(await everyPage(asRegex(filters), state && [...state]));
      }
    }
    const disk = await everyPage(cases[0]);
    expect(disk.map((p) => p.hosts.length)).toEqual([3, 3, 3]);
    expect(disk.flatMap((p) => p.hosts).toSorted()).toEqual(
      [0, 2, 4, 5, 6, 8, 10, 12, 13].map((i) => `host-${i}`).toSorted(),
    );
    const unnamed = await everyPage(cases[1], ['resolved', 'firing', 'silenced']);
    expect(unnamed.map((p) => p.hosts)).toEqual([['host-3', 'host-11']]);
  });
});
