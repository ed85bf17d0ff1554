import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../fixtures';
import { login, newConfigDir, runCli } from '../support/cli';
import { queueName, queuePublisher } from '../support/queues';

// The real `svc queues`, logged in as bob (QueuesEditor on Production), and as a publisher bot's key.
test.describe.configure({ mode: 'serial' });

const bobDir = newConfigDir();
const name = queueName('cli');
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('create prints the id; list shows it as a table and as JSON', async () => {
  await login('bob', bobDir);
  const created = await runCli(['queues', 'create', name, '--project', 'Production', '--retention', '3600'], bobDir);
  expect(created.code, created.stderr).toBe(0);
  expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  expect(created.stderr).toContain(`Created queue ${name} in Production; messages are kept 1h.`);

  const json = await runCli(['queues', 'list', '--project', 'production', '--json'], bobDir);
  expect(json.code, json.stderr).toBe(0);
  const listed = (JSON.parse(json.stdout) as { id: string; name: string; retentionSeconds: number }[]).find(
    (q) => q.name === name,
  );
  expect(listed).toMatchObject({ id: created.stdout.trim(), retentionSeconds: 3600 });

  const table = await runCli(['queues', 'list', '--project', 'Production'], bobDir);
  expect(table.code, table.stderr).toBe(0);
  const lines = table.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^NAME\s+RETENTION\s+CREATED\s+ID$/);
  expect(lines.find((l) => l.startsWith('orders '))).toMatch(
    /^orders\s+4d\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+[0-9a-f-]{36}$/,
  );
  expect(lines.find((l) => l.startsWith(`${name} `))).toContain(' 1h ');
});

test('publish by name sends --data (JSON or @file) with its attributes and prints the id', async () => {
  const inline = await runCli(
    [
      'queues',
      'publish',
      name,
      '--project',
      'Production',
      '--data',
      '{"order":7}',
      '--attribute',
      'kind=order',
      '--attribute',
      'trace=a=b',
    ],
    bobDir,
  );
  expect(inline.code, inline.stderr).toBe(0);
  expect(inline.stdout.trim()).toMatch(uuid);
  expect(inline.stderr).toContain(`Published a message to ${name}.`);

  const file = path.join(bobDir, 'message.json');
  writeFileSync(file, JSON.stringify({ lines: [1, 2, 3] }));
  const fromFile = await runCli(
    ['queues', 'publish', name, '--project', 'Production', '--data', `@${file}`, '--json'],
    bobDir,
  );
  expect(fromFile.code, fromFile.stderr).toBe(0);
  expect((JSON.parse(fromFile.stdout) as { messageIds: string[] }).messageIds).toHaveLength(1);
});

test('what is refused says why and exits non-zero: bad JSON, a server 400, a queue in use, a missing project', async () => {
  const notJson = await runCli(['queues', 'publish', name, '--project', 'Production', '--data', '{nope'], bobDir);
  expect(notJson.code).toBe(1);
  expect(notJson.stderr).toMatch(/^error: --data is not JSON/);

  const badAttribute = await runCli(
    ['queues', 'publish', name, '--project', 'Production', '--data', '1', '--attribute', 'no spaces=x'],
    bobDir,
  );
  expect(badAttribute.code).toBe(1);
  expect(badAttribute.stderr).toContain('messages.0.attributes.no spaces: An attribute name is 1 to 64');

  const inUse = await runCli(['queues', 'delete', 'orders', '--project', 'Production'], bobDir);
  expect(inUse.code).toBe(1);
  expect(inUse.stderr).toContain('3 subscriptions read from this queue');

  const which = await runCli(['queues', 'list'], bobDir);
  expect(which.code).toBe(1);
  expect(which.stderr).toContain('Acme has several projects; choose one with --project <name-or-id>.');

  const unknown = await runCli(['queues', 'delete', 'no-such-queue', '--project', 'Production'], bobDir);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('No queue "no-such-queue" in Production.');
});

test('delete by name removes the queue', async () => {
  const deleted = await runCli(['queues', 'delete', name, '--project', 'Production'], bobDir);
  expect(deleted.code, deleted.stderr).toBe(0);
  expect(deleted.stderr).toMatch(new RegExp(`^Deleted queue ${name} \\([0-9a-f-]{36}\\) and its messages\\.`));
  const json = await runCli(['queues', 'list', '--project', 'Production', '--json'], bobDir);
  expect((JSON.parse(json.stdout) as { name: string }[]).map((q) => q.name)).not.toContain(name);
});

test('a QueuePublisher bot’s key publishes by project and queue id, which it may read but not list', async ({ as }) => {
  const { projectId, queue, secret } = await queuePublisher(await as('ada'));
  const env = { SVC_API_KEY: secret };
  const dir = newConfigDir();

  const published = await runCli(
    ['queues', 'publish', queue.id, '--project', projectId, '--data', '"hello"'],
    dir,
    env,
  );
  expect(published.code, published.stderr).toBe(0);
  expect(published.stdout.trim()).toMatch(uuid);
  const byName = await runCli(['queues', 'publish', 'jobs', '--project', projectId, '--data', '1'], dir, env);
  expect(byName.code).toBe(1);
  expect(byName.stderr).toContain('You do not have permission');
});
