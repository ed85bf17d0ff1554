import { describe, expect, it } from 'vitest';
import { createTestSilence, receivedAlert, TEST_SOURCE, testPrincipal } from '../../server/testing/alerts';
import { newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { expireSilence } from '../silences/lifecycle-service';
import { getSilence } from '../silences/service';
import { unresolvedAlerts } from './list-service';
import { followTheClock } from './muting-service';
import { storeAlerts } from './service';

withEmptyEmbeddedDatabase('alerts-service');

const source = TEST_SOURCE;
const principal = testPrincipal();
const NOW = new Date('2030-06-01T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const received = (labels: Record<string, string>, index = 0, endsAt = at(5)) =>
  receivedAlert(labels, { startsAt: NOW, endsAt, endsByTimeout: true, index });

describe('alerts and silences kept linked on write, state read as of a time', () => {
  it('a silence mutes stored and later alerts, only while active, and its count follows the clock', async () => {
    const { scope } = await newTestProject('Muting');
    await storeAlerts(scope, [received({ alertname: 'Disk', env: 'prod' }), received({ alertname: 'Cpu' }, 1)], NOW);
    const silence = await createTestSilence(scope, NOW, {
      comment: 'disk',
      matchers: [{ label: 'alertname', op: '=~', value: 'Di.*' }],
      endsAt: at(60).toISOString(),
    });
    expect(silence.mutedAlerts).toBe(1);
    await storeAlerts(scope, [received({ alertname: 'Disk', env: 'dev' }, 0, at(10))], NOW);
    expect((await getSilence(scope, silence.id, NOW))?.mutedAlerts).toBe(2);

    const silencedNow = (await unresolvedAlerts(scope, NOW)).filter((a) => a.silencedBy.length > 0);
    expect(silencedNow.map((a) => a.labels.env).sort()).toEqual(['dev', 'prod']);
    // After its end (by the clock, nothing run): no alert lists it.
    const later = await unresolvedAlerts(scope, at(7));
    expect(later.map((a) => [a.labels.alertname, a.silencedBy])).toEqual(
      expect.arrayContaining([['Disk', [silence.id]]]),
    );
    expect((await unresolvedAlerts(scope, at(61))).every((a) => a.silencedBy.length === 0)).toBe(true);

    // The prod alert resolved at +5 min: the clock's job drops its link and recounts.
    await followTheClock(at(6));
    expect((await getSilence(scope, silence.id, at(6)))?.mutedAlerts).toBe(1);

    await expireSilence({ scope, principal, source, now: at(8), silenceId: silence.id, ifMatch: null });
    expect((await unresolvedAlerts(scope, at(8))).every((a) => a.silencedBy.length === 0)).toBe(true);
  });

  it('a scheduled silence is linked but mutes nothing until it starts', async () => {
    const { scope } = await newTestProject('Scheduled');
    await storeAlerts(scope, [received({ alertname: 'Net' })], NOW);
    const silence = await createTestSilence(scope, NOW, {
      comment: 'later',
      matchers: [{ label: 'alertname', op: '=', value: 'Net' }],
      startsAt: at(2).toISOString(),
      endsAt: at(60).toISOString(),
    });
    expect(silence).toMatchObject({ state: 'scheduled', mutedAlerts: 0 });
    expect((await unresolvedAlerts(scope, NOW))[0].silencedBy).toEqual([]);
    expect((await unresolvedAlerts(scope, at(3)))[0].silencedBy).toEqual([silence.id]);
    expect((await getSilence(scope, silence.id, at(3)))?.mutedAlerts).toBe(1);
  });

  it("counts the unresolved alerts only for one that would start firing, the batch's earlier moves included", async () => {
    const { scope } = await newTestProject('Limit');
    process.env.ALERTS_MAX_PER_PROJECT = '2';
    try {
      const a = received({ alertname: 'A' });
      const b = received({ alertname: 'B' }, 1);
      await storeAlerts(scope, [a, b], NOW);
      // Full: a resend of the firing ones is stored, a new one refused.
      const resend = await storeAlerts(scope, [a, b, received({ alertname: 'C' }, 2)], at(1));
      expect(resend.stored).toBe(2);
      expect(resend.refused.map((r) => r.reason)).toEqual([
        'too many alerts: the project has 2 unresolved, the limit is 2',
      ]);
      // A resolve earlier in the batch frees a place for a new one later in it.
      const moved = await storeAlerts(scope, [{ ...b, endsAt: at(1) }, received({ alertname: 'C' }, 1)], at(2));
      expect(moved).toEqual({ stored: 2, refused: [] });
      expect((await unresolvedAlerts(scope, at(2))).map((r) => r.labels.alertname).sort()).toEqual(['A', 'C']);
    } finally {
      delete process.env.ALERTS_MAX_PER_PROJECT;
    }
  });
});
