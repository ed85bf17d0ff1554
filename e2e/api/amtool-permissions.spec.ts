import type { APIRequestContext } from '@playwright/test';
import { expect, test, type Demo } from '../fixtures';
import { AMTOOL_SILENCE_COMMANDS } from '../../lib/alertmanager/amtool-permissions';
import type { Permission } from '../../lib/permissions';
import { createKey } from '../support/api-keys';
import { alertmanagerBase, amtool, unique } from '../support/amtool';
import { runLabel } from '../support/alerts';
import { productionSilences, type Silence } from '../support/silences';

type Command = (typeof AMTOOL_SILENCE_COMMANDS)[number]['command'];

/** One run of a command: its arguments, and whether it did its work (from its output, or read through bob's session). */
type Attempt = { args: string[]; done: (stdout: string) => Promise<boolean> };

/** A permission no silence command needs: what a key holds when every one it needs is taken away. */
const UNRELATED: Permission = 'obs.alerts.list';

async function newSilence(bob: APIRequestContext, demo: Demo, run: string): Promise<Silence> {
  const res = await bob.post(productionSilences(demo), {
    data: {
      comment: unique('amtool permissions'),
      matchers: [{ label: 'run', op: '=', value: run }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Silence;
}

async function silence(bob: APIRequestContext, demo: Demo, id: string): Promise<Silence> {
  const res = await bob.get(`${productionSilences(demo)}/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Silence;
}

/** Each command the console names permissions for, set up afresh for every key it is tried with. */
const ATTEMPTS: Record<Command, (bob: APIRequestContext, demo: Demo) => Promise<Attempt>> = {
  'silence query': async (bob, demo) => {
    const run = runLabel();
    const { id } = await newSilence(bob, demo, run);
    return { args: ['silence', 'query', '-q', `run=${run}`], done: async (stdout) => stdout.includes(id) };
  },
  'silence add': async (bob, demo) => {
    const comment = unique('amtool add');
    return {
      args: ['silence', 'add', `run=${runLabel()}`, `--comment=${comment}`],
      done: async () => {
        const res = await bob.get(`${productionSilences(demo)}?limit=100&state=active`);
        return ((await res.json()) as { items: Silence[] }).items.some((s) => s.comment === comment);
      },
    };
  },
  'silence update': async (bob, demo) => {
    const { id } = await newSilence(bob, demo, runLabel());
    const comment = unique('amtool update');
    return {
      args: ['silence', 'update', id, `--comment=${comment}`],
      done: async () => (await silence(bob, demo, id)).comment === comment,
    };
  },
  'silence expire': async (bob, demo) => {
    const { id } = await newSilence(bob, demo, runLabel());
    return { args: ['silence', 'expire', id], done: async () => (await silence(bob, demo, id)).state === 'expired' };
  },
};

test.describe('the permissions the console names for amtool, with Debian’s amtool', () => {
  for (const { command, permissions } of AMTOOL_SILENCE_COMMANDS) {
    test(`amtool ${command} works with exactly ${permissions.join(' and ')} and fails without any one of them`, async ({
      bob,
      demo,
    }) => {
      const base = alertmanagerBase(demo.acme, demo.production);
      const tryWith = async (granted: readonly Permission[]) => {
        const key = await createKey(bob, demo.acme, {
          name: unique(`amtool ${command}`),
          expiresInDays: 1,
          permissions: granted,
          projectIds: [demo.production],
        });
        const attempt = await ATTEMPTS[command](bob, demo);
        const result = await amtool(base, { bearer: key.secret }, attempt.args);
        return { result, done: await attempt.done(result.stdout) };
      };

      const exact = await tryWith(permissions);
      expect(exact.result, exact.result.stderr).toMatchObject({ code: 0 });
      expect(exact.done, `amtool ${command} did its work`).toBe(true);

      for (const missing of permissions) {
        const rest = permissions.filter((p) => p !== missing);
        const less = await tryWith(rest.length > 0 ? rest : [UNRELATED]);
        expect(less.result.code, `amtool ${command} without ${missing}`).not.toBe(0);
        expect(less.result.stderr, `amtool ${command} without ${missing}`).toContain('(status 403)');
        expect(less.done, `amtool ${command} without ${missing} changed nothing`).toBe(false);
      }
    });
  }
});
