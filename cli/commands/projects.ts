import { Command } from 'commander';
import { CliError } from '../errors';
import { table } from '../format';
import { ApiClient, ok } from '../http';
import { resolveOrganization, withOrgOptions, type OrgOptions } from '../orgs';
import { out, say } from '../output';
import { listProjects, matchOne, type Project } from '../refs';

const alerting = (p: Project) => (p.alertingEnabled ? 'on' : 'off');

export function projectsCommand(): Command {
  const projects = new Command('projects').description(
    'The projects of an organization: list, create, rename, alerting',
  );

  withOrgOptions(projects.command('list').description('List the projects of the organization')).action(
    async (options: OrgOptions) => {
      const api = new ApiClient();
      const org = await resolveOrganization(api, options.org);
      const list = await listProjects(api, org.id);
      if (options.json) out(`${JSON.stringify(list, null, 2)}\n`);
      else if (list.length === 0) say(`${org.name} has no projects yet.`);
      else
        out(
          table(
            ['NAME', 'ALERTING', 'ID'],
            list.map((p) => [p.name, alerting(p), p.id]),
          ),
        );
    },
  );

  withOrgOptions(
    projects
      .command('create')
      .description('Create a project and print its id')
      .argument('<name>', 'unique in the organization, case aside (1 to 100 characters)')
      .option('--alerting', 'turn alerting (silences) on for it (default: off)'),
  ).action(async (name: string, options: OrgOptions & { alerting?: boolean }) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const project = await ok(
      api.v1.POST('/v1/organizations/{orgId}/projects', {
        params: { path: { orgId: org.id } },
        body: { name, alertingEnabled: options.alerting ?? false },
      }),
    );
    out(options.json ? `${JSON.stringify(project, null, 2)}\n` : `${project.id}\n`);
    say(`Created project ${project.name} in ${org.name}; alerting ${alerting(project)}.`);
  });

  withOrgOptions(
    projects
      .command('update')
      .description('Rename a project, or turn its alerting on or off')
      .argument('<name-or-id>', 'which project')
      .option('--name <name>', 'its new name')
      .option('--alerting', 'turn alerting on')
      .option('--no-alerting', 'turn alerting off (its silences answer 404 from the next request)'),
  ).action(async (ref: string, options: OrgOptions & { name?: string; alerting?: boolean }) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const before = matchOne(await listProjects(api, org.id), ref, 'project', (p) => p.name, org.name);
    const body = {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.alerting !== undefined ? { alertingEnabled: options.alerting } : {}),
    };
    if (Object.keys(body).length === 0)
      throw new CliError('Nothing to change: give --name, --alerting or --no-alerting.');
    const project = await ok(
      api.v1.PATCH('/v1/organizations/{orgId}/projects/{projectId}', {
        params: { path: { orgId: org.id, projectId: before.id } },
        body,
      }),
    );
    out(options.json ? `${JSON.stringify(project, null, 2)}\n` : `${project.id}\n`);
    say(`Project ${project.name} in ${org.name}: alerting ${alerting(project)}.`);
  });

  return projects;
}
