import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SERVER_ARGS, SERVER_NODE_FLAGS } from './server-node-flags.mjs';

it('npm start runs the server as the bench, the drills and the e2e suites start it', () => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  expect(scripts.start).toBe(['node', ...SERVER_ARGS].join(' '));
});

it('Node accepts the flags, and under load the young generation grows past its default limit', () => {
  // Requests in flight keep some objects alive across scavenges; V8 then grows the young generation to its limit.
  const load = `let live = []; for (let i = 0; i < 3e6; i++) { live.push({ i, s: 'x' + i }); if (live.length > 2e4) live = []; }
    console.log(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)`;
  const youngBytes = (flags: readonly string[]) =>
    Number(execFileSync(process.execPath, [...flags, '-e', load]).toString());
  expect(youngBytes(SERVER_NODE_FLAGS)).toBeGreaterThan(youngBytes([]));
});
