import { CliError } from './errors';
import { ok, type ApiClient } from './http';

export type Project = { id: string; name: string; alertingEnabled: boolean };
export type Binding = { policy: string; projectId: string | null };

/**
 * The one item a reference names: an exact id, else a name (case-insensitive). Several by that name list them
 * with their ids and the command changes nothing; none lists what there is.
 */
export function matchOne<T extends { id: string }>(
  items: T[],
  ref: string,
  what: string,
  nameOf: (item: T) => string,
  where: string,
): T {
  const byId = items.find((i) => i.id === ref);
  if (byId) return byId;
  const byName = items.filter((i) => nameOf(i).toLowerCase() === ref.toLowerCase());
  const listing = (list: T[]) => list.map((i) => `  ${nameOf(i)}  (${i.id})`).join('\n');
  if (byName.length === 1) return byName[0];
  if (byName.length > 1)
    throw new CliError(
      `Several ${what}s in ${where} match "${ref}"; nothing was changed. Use the id:\n${listing(byName)}`,
    );
  throw new CliError(
    `No ${what} "${ref}" in ${where}.${items.length ? ` There are:\n${listing(items)}` : ` It has no ${what}s yet.`}`,
  );
}

export function listProjects(api: ApiClient, orgId: string): Promise<Project[]> {
  return api.listAll((query) =>
    ok(api.v1.GET('/v1/organizations/{orgId}/projects', { params: { path: { orgId }, query } })),
  );
}

/** Commander's collector for an option given several times (`--role A --role B:Production`). */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `--role POLICY[:project]` as the API's bindings: no project is the whole organization; a project is found by
 * name or id before anything is sent. The policy name goes as given: the server names an unknown one.
 */
export async function bindingsFromRoles(
  api: ApiClient,
  org: { id: string; name: string },
  roles: string[],
): Promise<Binding[]> {
  const scoped = roles.some((r) => r.includes(':'));
  const projects = scoped ? await listProjects(api, org.id) : [];
  return roles.map((role) => {
    const at = role.indexOf(':');
    if (at < 0) return { policy: role, projectId: null };
    const project = matchOne(projects, role.slice(at + 1), 'project', (p) => p.name, org.name);
    return { policy: role.slice(0, at), projectId: project.id };
  });
}

/** Bindings as people read them (`OrganizationAdmin, Viewer:Production`); the projects are listed once, when needed. */
export async function rolesNamer(api: ApiClient, orgId: string, all: Binding[][]): Promise<(b: Binding[]) => string> {
  const projects = all.flat().some((b) => b.projectId) ? await listProjects(api, orgId) : [];
  const nameOf = (id: string) => projects.find((p) => p.id === id)?.name ?? id;
  return (bindings) =>
    bindings.length === 0
      ? 'no roles'
      : bindings.map((b) => (b.projectId ? `${b.policy}:${nameOf(b.projectId)}` : b.policy)).join(', ');
}

export const rolesSaid = async (api: ApiClient, orgId: string, bindings: Binding[]) =>
  (await rolesNamer(api, orgId, [bindings]))(bindings);

export const ROLE_HELP = 'a policy, in the whole organization or as POLICY:project (name or id); repeat for more';
