import { expect, readFixtures, sessionFor, test } from '../fixtures';
import { newConfigDir, runCli } from '../support/cli';
import { loadDemoSubs, subPath, type Sub } from '../support/subscriptions';

// `svc subscriptions …` as the deploy bot (SVC_API_KEY): QueuesEditor on Production, BasicAccess elsewhere.
test.describe.configure({ mode: 'serial' });

const dir = newConfigDir();
const env = () => ({ SVC_API_KEY: readFixtures().keys.deployBot });
let created: Sub | undefined;

test.afterAll(async () => {
  if (!created) return;
  const ada = await sessionFor('ada');
  expect((await ada.delete(subPath(created))).status()).toBe(204);
  await ada.dispose();
});

const svc = (...args: string[]) => runCli(['subscriptions', ...args], dir, env());

async function listed(): Promise<Sub[]> {
  const { code, stdout, stderr } = await svc('list', '--project', 'Production', '--json');
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as Sub[];
}

test('create prints the signing secret alone on stdout; list shows the new subscription', async ({ demo }) => {
  const { https } = await loadDemoSubs(demo);
  const before = await listed();
  const res = await svc(
    'create',
    '--project',
    'Production',
    '--queue',
    https.queueId,
    '--url',
    'https://hooks.example.com/cli',
    '--paused',
    '--max-attempts',
    '3',
  );
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout).toMatch(/^whsec_[A-Za-z0-9+/]{43}=\n$/);
  expect(res.stderr).toMatch(/Created subscription qsb_[a-z0-9]{12} \([0-9a-f-]{36}\) in Acme\/Production, paused\./);
  expect(res.stderr).not.toContain(res.stdout.trim());
  const after = await listed();
  created = after.find((s) => !before.some((b) => b.id === s.id));
  expect(created).toMatchObject({
    queueId: https.queueId,
    state: 'paused',
    target: { kind: 'https', url: 'https://hooks.example.com/cli', timeoutSeconds: 30 },
    retryPolicy: { maxAttempts: 3, minBackoffSeconds: 10, maxBackoffSeconds: 600 },
  });
  const table = await svc('list', '--project', 'Production');
  expect(table.stdout.split('\n')[0]).toMatch(/^SLUG\s+STATE\s+HEALTH\s+TARGET\s+QUEUE\s+LAST SUCCESS\s+ID$/);
  expect(table.stdout).toMatch(new RegExp(`${created!.slug}\\s+paused\\s+healthy\\s+https://hooks.example.com/cli`));
});

test('resume and pause by slug or id; repeating one says nothing changed', async () => {
  const resumed = await svc('resume', created!.slug, '--project', 'Production');
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain(`Subscription ${created!.slug} is now active.`);
  const paused = await svc('pause', created!.id, '--project', 'Production', '--json');
  expect(JSON.parse(paused.stdout)).toMatchObject({ id: created!.id, state: 'paused' });
  const again = await svc('pause', created!.slug, '--project', 'Production');
  expect(again.code).toBe(0);
  expect(again.stderr).toContain('was already paused; nothing changed');
  expect((await listed()).find((s) => s.id === created!.id)!.state).toBe('paused');
});

test('dead letters: a table of them, an empty list, and a redrive of none', async ({ fixtures }) => {
  const letters = await svc('dead-letters', fixtures.deadLetters.subscriptionId, '--project', 'Staging');
  expect(letters.code, letters.stderr).toBe(0);
  const lines = letters.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^MESSAGE\s+DEAD-LETTERED\s+ATTEMPTS\s+LAST ERROR$/);
  expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(fixtures.deadLetters.deadLetterIds);
  expect(lines[1]).toMatch(/UTC\s+5\s+Target answered 500$/);

  const none = await svc('dead-letters', created!.slug, '--project', 'Production');
  expect(none.code, none.stderr).toBe(0);
  expect(none.stdout).toBe('');
  expect(none.stderr).toContain(`${created!.slug} has no dead letters.`);
  const redrive = await svc('dead-letters', created!.slug, '--project', 'Production', '--redrive');
  expect(redrive.code, redrive.stderr).toBe(0);
  expect(redrive.stderr).toContain(`Redrove 0 dead letters of ${created!.slug}`);
});

test('refusals: no target, a bad number, an unknown queue, an unknown subscription; nothing created', async () => {
  const before = await listed();
  const noTarget = await svc('create', '--project', 'Production', '--queue', created!.queueId);
  expect(noTarget.code).not.toBe(0);
  expect(noTarget.stderr).toContain('--url <url>');
  const badNumber = await svc('create', '--project', 'Production', '--queue', created!.queueId, '--batch-size', '11');
  expect(badNumber.code).not.toBe(0);
  expect(badNumber.stderr).toContain('--batch-size must be a whole number from 1 to 10');
  const unknownQueue = await svc(
    'create',
    '--project',
    'Production',
    '--queue',
    '00000000-0000-4000-8000-000000000000',
    '--workflow',
    '00000000-0000-4000-8000-000000000001',
  );
  expect(unknownQueue.code).toBe(1);
  expect(unknownQueue.stderr).toContain('queueId: No such queue in this project.');
  const unknown = await svc('pause', 'qsb_nosuchthing0', '--project', 'Production');
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('No subscription "qsb_nosuchthing0" in Acme/Production');
  const noProject = await svc('list');
  expect(noProject.code).toBe(1);
  expect(noProject.stderr).toContain('choose one with --project');
  expect((await listed()).map((s) => s.id)).toEqual(before.map((s) => s.id));
});
