import { PERMISSIONS } from '@/lib/permissions';

/** A restricted key's permissions and projects, chosen before the create dialog opens. */
export type KeyStart = { permissions: string[]; projectIds: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `?new=restricted&project=<id>&permission=<name>…`, as a "Use from code" panel links here: the create dialog opens
 * restricted to these. Names that are no permission and a project that is no id are dropped; the picker and the
 * server judge the rest as if ticked by hand.
 */
export function keyStartOf(params: URLSearchParams): KeyStart | null {
  if (params.get('new') !== 'restricted') return null;
  const known: readonly string[] = PERMISSIONS;
  return {
    permissions: [...new Set(params.getAll('permission').filter((p) => known.includes(p)))],
    projectIds: params.getAll('project').filter((p) => UUID.test(p)),
  };
}

/** The query without the key start's own parameters, once the dialog it opened closes. */
export function withoutKeyStart(params: URLSearchParams): string {
  const rest = new URLSearchParams(params);
  for (const name of ['new', 'project', 'permission']) rest.delete(name);
  return rest.size ? `?${rest.toString()}` : '';
}
