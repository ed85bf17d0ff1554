import { Command } from 'commander';
import { updateServerConfig } from '../config';
import { table } from '../format';
import { ApiClient } from '../http';
import { listOrganizations, matchOrganization } from '../orgs';
import { out, say } from '../output';
import { addOrgsCreate } from './orgs-create';

export function orgsCommand(): Command {
  const orgs = new Command('orgs').description('Your organizations, and the one commands act in by default');

  orgs
    .command('list')
    .description('List the organizations you are in')
    .option('--json', 'print JSON instead of text')
    .action(async (options: { json?: boolean }) => {
      const list = await listOrganizations(new ApiClient());
      if (options.json) out(`${JSON.stringify(list, null, 2)}\n`);
      else if (list.length === 0) say('You are not in any organization yet.');
      else
        out(
          table(
            ['NAME', 'ID'],
            list.map((o) => [o.name, o.id]),
          ),
        );
    });

  orgs
    .command('use')
    .description('Make an organization the default for --org')
    .argument('<id-or-name>', 'the organization')
    .action(async (ref: string) => {
      const api = new ApiClient();
      const org = matchOrganization(await listOrganizations(api), ref);
      updateServerConfig(api.server, (current) => ({ ...current, defaultOrg: org.id }));
      say(`Commands now act in ${org.name} (${org.id}) unless --org says otherwise.`);
    });

  addOrgsCreate(orgs);
  return orgs;
}
