import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/**
 * A new folder under the OS's temporary directory, removed when this test process exits: the folders the tests
 * make hold keys and tokens (a CLI's config, an exported file), and none may outlive the run.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  if (made.push(dir) === 1)
    process.once('exit', () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });
  return dir;
}
