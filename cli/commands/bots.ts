import { Command } from 'commander';
import { ApiClient, ok } from '../http';
import { resolveOrganization } from '../orgs';
import { out, say } from '../output';
import { bindingsFromRoles, collect, matchOne, ROLE_HELP, rolesSaid } from '../refs';

type RoleOptions = { org?: string; json?: boolean; role: string[] };

function withRoleOptions(command: Command): Command {
  return command
    .requiredOption('--role <POLICY[:project]>', ROLE_HELP, collect)
    .option('--org <id-or-name>', 'organization to act in (default: the saved one, or your only one)')
    .option('--json', 'print JSON instead of text');
}

export function botsCommand(): Command {
  const bots = new Command('bots').description('Bots: principals for automation, which own API keys');

  withRoleOptions(
    bots
      .command('create')
      .description('Create a bot with the --role roles and print its id')
      .argument('<name>', 'unique among the organization’s bots (1 to 100 characters)'),
  ).action(async (name: string, options: RoleOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const policies = await bindingsFromRoles(api, org, options.role);
    const bot = await ok(
      api.v1.POST('/v1/organizations/{orgId}/bots', { params: { path: { orgId: org.id } }, body: { name, policies } }),
    );
    out(options.json ? `${JSON.stringify(bot, null, 2)}\n` : `${bot.id}\n`);
    say(`Created bot ${bot.name} in ${org.name} with ${await rolesSaid(api, org.id, bot.policies)}.`);
    say(`Give it a key with \`svc iam api-keys create <name> --bot ${bot.name}\`.`);
  });

  withRoleOptions(
    bots
      .command('roles')
      .description('Replace a bot’s roles with the --role ones')
      .argument('<name-or-id>', 'which bot'),
  ).action(async (ref: string, options: RoleOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const all = await api.listAll((query) =>
      ok(api.v1.GET('/v1/organizations/{orgId}/bots', { params: { path: { orgId: org.id }, query } })),
    );
    const bot = matchOne(all, ref, 'bot', (b) => b.name, org.name);
    const policies = await bindingsFromRoles(api, org, options.role);
    const updated = await ok(
      api.v1.PUT('/v1/organizations/{orgId}/bots/{botId}/policies', {
        params: { path: { orgId: org.id, botId: bot.id } },
        body: { policies },
      }),
    );
    if (options.json) out(`${JSON.stringify(updated, null, 2)}\n`);
    say(`Bot ${updated.name} now has ${await rolesSaid(api, org.id, updated.policies)} in ${org.name}.`);
  });

  return bots;
}
