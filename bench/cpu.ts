/**
 * CPU time from /proc, so a change's cost shows per request even when throughput is noisy: the app's
 * process tree (the start script and the Next server it spawns) and the PostgreSQL backends serving the
 * benchmark's database (their pids from pg_stat_activity).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type pg from 'pg';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

type Stat = { ppid: number; ticks: number };

/** utime + stime (fields 14 and 15) and the parent pid; null once the process is gone. */
function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: split after its closing one.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** The pid and every descendant of it, read from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ticks per pid at one instant. */
export type Sample = Map<number, number>;

function sample(pids: number[]): Sample {
  const out: Sample = new Map();
  for (const pid of pids) {
    const s = stat(pid);
    if (s) out.set(pid, s.ticks);
  }
  return out;
}

/** Milliseconds of CPU between two samples; a process that appeared in between counts from zero. */
export function cpuMs(before: Sample, after: Sample): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

export const sampleApp = (rootPid: number): Sample => sample(processTree(rootPid));

/** The backends connected to `database` (the monitoring connection is to another database, so never counted). */
export async function samplePostgres(admin: pg.Client, database: string): Promise<Sample> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    database,
  ]);
  return sample(rows.map((r) => r.pid));
}
