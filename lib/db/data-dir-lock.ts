import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is in use by another process. ` +
        'PGlite cannot be shared between processes: stop the other one, choose another DATA_DIR, ' +
        'or set DATABASE_URL to run several instances on PostgreSQL.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** A process's state letter and start time (clock ticks since boot) from Linux's /proc, or null without it. */
function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces and parentheses: state is field 3, starttime 22.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return null;
  }
}

/** What the holder file records of this process: enough to tell it from a later process given its pid. */
export function holderRecord(): { pid: number; host: string; startTime: string | null } {
  return { pid: process.pid, host: os.hostname(), startTime: procStat(process.pid)?.startTime ?? null };
}

/**
 * Whether the process that wrote `holderFile` ran on this host and is gone: killed or crashed, a zombie its
 * parent has not reaped yet (kill(pid, 0) still succeeds on one), or its pid now names another process
 * (a container restarted with the same pid) whose start time differs.
 */
export function holderIsGone(holderFile: string): boolean {
  let holder: { pid?: number; host?: string; startTime?: string | null };
  try {
    holder = JSON.parse(readFileSync(holderFile, 'utf8')) as typeof holder;
  } catch {
    return false; // no record: a holder that has not written it yet, so treat it as alive
  }
  // Another host's pid means nothing here: its lock goes stale only by proper-lockfile's mtime rule.
  if (!holder.pid || holder.host !== os.hostname()) return false;
  const stat = procStat(holder.pid);
  if (stat && holder.startTime && stat.startTime !== holder.startTime) return true;
  if (holder.pid === process.pid) return false;
  if (stat && (stat.state === 'Z' || stat.state === 'X')) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === 'ESRCH';
  }
}

/**
 * PGlite has no cross-process lock of its own: a second writer would silently fork the data. A live holder
 * refreshes the lock every 5 s and a second process is refused at once; a holder killed with -9 leaves a
 * lock that is stale at once, because the pid it recorded is gone, instead of only after 30 s.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockfile = await import('proper-lockfile');
  const lockPath = path.join(dir, '.lock');
  const holderFile = path.join(dir, '.lock-holder');
  const take = () =>
    lockfile.lock(dir, {
      lockfilePath: lockPath,
      stale: 30_000,
      update: 5_000,
      retries: 0,
      realpath: false,
      onCompromised: (err) => {
        console.error('Lost the lock on the embedded database; exiting to protect the data.', err);
        process.exit(1);
      },
    });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (err) {
    if ((err as { code?: string }).code !== 'ELOCKED') throw err;
    if (!holderIsGone(holderFile)) throw new DataDirLockedError(dir);
    // Renaming is atomic: of two processes restarting at once, one moves the dead lock away, one is refused.
    const tomb = `${lockPath}.stale-${process.pid}`;
    try {
      renameSync(lockPath, tomb);
    } catch {
      throw new DataDirLockedError(dir);
    }
    rmSync(tomb, { recursive: true, force: true });
    try {
      release = await take();
    } catch (again) {
      if ((again as { code?: string }).code === 'ELOCKED') throw new DataDirLockedError(dir);
      throw again;
    }
  }
  writeFileSync(holderFile, JSON.stringify(holderRecord()));
  return release;
}
