import type { Permission } from '../permissions';

/**
 * What each amtool (0.25) silence command needs in the project, exactly: the console names these for a key that
 * drives amtool, and e2e/api/amtool-permissions.spec.ts runs Debian's amtool with a key of each set, then of each
 * set less any one permission, which fails. docs/alertmanager.md's table says the same, with the requests.
 * `silence update` here changes a comment or an end; another start replaces the silence and needs
 * `obs.silences.create` too.
 */
export const AMTOOL_SILENCE_COMMANDS = [
  { command: 'silence query', permissions: ['obs.silences.list'] },
  { command: 'silence add', permissions: ['obs.silences.create'] },
  { command: 'silence update', permissions: ['obs.silences.get', 'obs.silences.update'] },
  { command: 'silence expire', permissions: ['obs.silences.update'] },
] as const satisfies readonly { command: string; permissions: readonly Permission[] }[];

/** Every permission the four commands need together: a key for amtool's silences, and no more. */
export const AMTOOL_SILENCE_PERMISSIONS: Permission[] = [
  ...new Set(AMTOOL_SILENCE_COMMANDS.flatMap((c) => c.permissions)),
];
