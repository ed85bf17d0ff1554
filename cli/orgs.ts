import type { Command } from 'commander';
import { loadServerConfig, type Env } from './config';
import { CliError } from './errors';
import { ok, type ApiClient } from './http';

export type Organization = { id: string; name: string };
export type OrgOptions = { org?: string; json?: boolean };

/** The options every command that acts in one organization takes. */
export function withOrgOptions(command: Command): Command {
  return command
    .option('--org <id-or-name>', 'organization to act in (default: the saved one, or your only one)')
    .option('--json', 'print JSON instead of text');
}

const listing = (orgs: Organization[]) => orgs.map((o) => `  ${o.name}  (${o.id})`).join('\n');

/** An organization by exact id, else by name (case-insensitive); the message lists the choices when none fits. */
export function matchOrganization(orgs: Organization[], ref: string): Organization {
  const byId = orgs.find((o) => o.id === ref);
  if (byId) return byId;
  const byName = orgs.filter((o) => o.name.toLowerCase() === ref.toLowerCase());
  if (byName.length === 1) return byName[0];
  if (byName.length > 1)
    throw new CliError(`Several organizations are named "${ref}"; use the id:\n${listing(byName)}`);
  throw new CliError(`You are not in an organization "${ref}". Your organizations:\n${listing(orgs)}`);
}

/** Every organization the caller is in. */
export function listOrganizations(api: ApiClient): Promise<Organization[]> {
  return api.listAll((query) => ok(api.v1.GET('/v1/organizations', { params: { query } })));
}

/** The organization a command acts in: --org, else the saved default (`svc orgs use`), else the only one. */
export async function resolveOrganization(
  api: ApiClient,
  flag: string | undefined,
  env: Env = process.env,
): Promise<Organization> {
  const orgs = await listOrganizations(api);
  const ref = flag ?? loadServerConfig(api.server, env).defaultOrg;
  if (ref) return matchOrganization(orgs, ref);
  if (orgs.length === 1) return orgs[0];
  if (orgs.length === 0) throw new CliError('You are not in any organization yet.');
  throw new CliError(
    `You are in several organizations; choose one with --org <id-or-name> (or \`svc orgs use <org>\`):\n${listing(orgs)}`,
  );
}
