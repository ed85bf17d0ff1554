import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holderIsGone, holderRecord } from './data-dir-lock';

const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-lock-'));
const holderFile = path.join(dir, '.lock-holder');
const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
const startTime = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
const record = (holder: object) => writeFileSync(holderFile, JSON.stringify({ host: os.hostname(), ...holder }));

// A parent that never reaps (the exec'd sleep): its child, once killed, stays a zombie while the parent lives.
const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
const zombiePid = new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(String(d)))));

afterAll(() => {
  parent.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('holderIsGone', () => {
  it('takes an unreaped (zombie) holder for gone, though kill(pid, 0) still finds it', async () => {
    const pid = await zombiePid;
    process.kill(pid, 'SIGKILL');
    while (state(pid) !== 'Z') await new Promise((r) => setImmediate(r));
    expect(() => process.kill(pid, 0)).not.toThrow();
    record({ pid, startTime: startTime(pid) });
    expect(holderIsGone(holderFile)).toBe(true);
  });

  it('takes a live holder for alive', () => {
    record({ pid: parent.pid, startTime: startTime(parent.pid!) });
    expect(holderIsGone(holderFile)).toBe(false);
    record({ pid: process.pid, startTime: holderRecord().startTime });
    expect(holderIsGone(holderFile)).toBe(false);
  });

  it('takes a pid that now names a later process (another start time) for gone', () => {
    record({ pid: parent.pid, startTime: '1' });
    expect(holderIsGone(holderFile)).toBe(true);
    record({ pid: process.pid, startTime: '1' });
    expect(holderIsGone(holderFile)).toBe(true);
  });

  it('never judges a holder of another host, or one with no record', () => {
    writeFileSync(holderFile, JSON.stringify({ pid: parent.pid, host: 'elsewhere', startTime: '1' }));
    expect(holderIsGone(holderFile)).toBe(false);
    rmSync(holderFile);
    expect(holderIsGone(holderFile)).toBe(false);
  });
});
