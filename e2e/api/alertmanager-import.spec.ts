import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { alertmanagerBase, amtool } from '../support/amtool';
import { E2E } from '../support/env';
import { productionSilences, type Silence } from '../support/silences';
import { startProcess, untilReady, type Spawned } from '../support/spawn-server';
import { tempDir } from '../support/temp-dir';

type Exported = { id: string; comment: string; matchers: { name: string; value: string; isRegex: boolean }[] };

/** Debian's real Alertmanager on 127.0.0.1, alone (no cluster), with a storage folder of its own. */
async function startAlertmanager(port: number): Promise<Spawned> {
  const dir = tempDir('alertmanager-');
  const config = path.join(dir, 'alertmanager.yml');
  writeFileSync(config, 'route:\n  receiver: "null"\nreceivers:\n  - name: "null"\n');
  const running = startProcess('prometheus-alertmanager', [
    `--config.file=${config}`,
    `--storage.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--cluster.listen-address=',
  ]);
  const url = `http://127.0.0.1:${port}`;
  await untilReady(running, `${url}/-/ready`, `alertmanager on ${port}`);
  return { url, ...running };
}

test.describe('migrating from a real Alertmanager', () => {
  let alertmanager: Awaited<ReturnType<typeof startAlertmanager>> | undefined;
  test.afterAll(async () => alertmanager?.stop());

  test('amtool silence import of `amtool silence query -o json` creates every silence here, as the caller', async ({
    as,
    demo,
  }) => {
    alertmanager = await startAlertmanager(E2E.port + 50);
    const tag = `migrated-${Date.now()}`;
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const added = [
      ['silence', 'add', 'alertname=~"Disk.*"', 'instance!="db-1"', `--comment=${tag} active`, '--duration=3h'],
      ['silence', 'add', 'job="api"', 'env=~"prod|staging"', `--comment=${tag} pending`, `--start=${inTwoHours}`],
    ];
    for (const args of added) {
      const res = await amtool(alertmanager.url, null, [...args, '--author=alice@old-alertmanager']);
      expect(res.code, res.stderr).toBe(0);
    }
    const exported = await amtool(alertmanager.url, null, ['silence', 'query', '-o', 'json']);
    expect(exported.code, exported.stderr).toBe(0);
    const theirs = (JSON.parse(exported.stdout) as Exported[]).filter((s) => s.comment.startsWith(tag));
    expect(theirs).toHaveLength(2);
    const file = path.join(tempDir('export-'), 'silences.json');
    writeFileSync(file, exported.stdout);

    const bob = await as('bob');
    const key = (await createKey(bob, demo.acme, { name: `import ${tag}`, expiresInDays: 1 })).secret;
    const imported = await amtool(alertmanagerBase(demo.acme, demo.production), { bearer: key }, [
      'silence',
      'import',
      file,
    ]);
    expect(imported.code, imported.stderr).toBe(0);

    const listed = (await (await bob.get(`${productionSilences(demo)}?limit=100`)).json()) as { items: Silence[] };
    // Alertmanager keeps matchers in its own order: compare them by label.
    const ours = listed.items
      .filter((s) => s.comment.startsWith(tag))
      .map((s) => ({ ...s, matchers: [...s.matchers].sort((a, b) => a.label.localeCompare(b.label)) }));
    expect(ours.map((s) => s.comment).sort()).toEqual([`${tag} active`, `${tag} pending`]);
    const active = ours.find((s) => s.comment.endsWith('active'))!;
    const pending = ours.find((s) => s.comment.endsWith('pending'))!;
    expect(active).toMatchObject({
      state: 'active',
      matchers: [
        { label: 'alertname', op: '=~', value: 'Disk.*' },
        { label: 'instance', op: '!=', value: 'db-1' },
      ],
      createdBy: { id: demo.users.bob, type: 'user' },
    });
    expect(pending).toMatchObject({
      state: 'scheduled',
      matchers: [
        { label: 'env', op: '=~', value: 'prod|staging' },
        { label: 'job', op: '=', value: 'api' },
      ],
    });
    expect(Date.parse(pending.startsAt)).toBe(Date.parse(inTwoHours));
    for (const s of ours) expect(theirs.map((t) => t.id)).not.toContain(s.id);
    const [event] = await auditEventsAbout(await as('ada'), demo.acme, active.id);
    expect(event).toMatchObject({ action: 'silence.created', context: { createdBy: 'alice@old-alertmanager' } });
  });
});
