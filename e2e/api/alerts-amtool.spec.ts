import { expect, test } from '../fixtures';
import { alertmanagerBase, amtool, keyOf } from '../support/amtool';
import { runLabel, type GettableAlert } from '../support/alerts';
import { productionSilences } from '../support/silences';

test.describe('alerts with the real amtool', () => {
  test('amtool alert add stores an alert (its zero times read as not given); query -a, -s and a matcher', async ({
    as,
    demo,
  }) => {
    const ada = await as('ada');
    const auth = { bearer: await keyOf(ada, demo, 'amtool alerts') };
    const base = alertmanagerBase(demo.acme, demo.production);
    const run = runLabel();

    for (const name of ['AmtoolDisk', 'AmtoolCpu']) {
      const added = await amtool(base, auth, ['alert', 'add', name, `run=${run}`, '--annotation=summary=from amtool']);
      expect(added, added.stderr).toMatchObject({ code: 0 });
    }
    const query = async (...args: string[]) => {
      const res = await amtool(base, auth, ['alert', 'query', '-o', 'json', ...args, `run=${run}`]);
      expect(res.code, res.stderr).toBe(0);
      return (JSON.parse(res.stdout) as GettableAlert[] | null) ?? [];
    };
    const active = await query();
    expect(active.map((a) => a.labels.alertname).sort()).toEqual(['AmtoolCpu', 'AmtoolDisk']);
    const disk = active.find((a) => a.labels.alertname === 'AmtoolDisk')!;
    expect(disk.annotations).toEqual({ summary: 'from amtool' });
    expect(Date.parse(disk.endsAt) - Date.parse(disk.startsAt)).toBe(5 * 60_000);
    expect((await query('alertname=~"Amtool.*"')).length).toBe(2);
    expect((await query('alertname=AmtoolCpu')).map((a) => a.labels.alertname)).toEqual(['AmtoolCpu']);

    const silence = await ada.post(productionSilences(demo), {
      data: {
        comment: 'amtool alert query -s',
        matchers: [
          { label: 'run', op: '=', value: run },
          { label: 'alertname', op: '=', value: 'AmtoolDisk' },
        ],
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(silence.status()).toBe(201);
    const { id } = (await silence.json()) as { id: string };
    expect((await query('-a')).map((a) => a.labels.alertname)).toEqual(['AmtoolCpu']);
    const silenced = await query('-s');
    expect(silenced.map((a) => [a.labels.alertname, a.status.state, a.status.silencedBy])).toEqual([
      ['AmtoolDisk', 'suppressed', [id]],
    ]);
  });
});
