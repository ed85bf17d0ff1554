import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { apiKeysCommand } from './commands/api-keys';
import { auditCommand } from './commands/audit';
import { loginCommand, logoutCommand } from './commands/auth';
import { botsCommand } from './commands/bots';
import { membersCommand } from './commands/members';
import { orgsCommand } from './commands/orgs';
import { projectsCommand } from './commands/projects';
import { subscriptionsCommand } from './commands/subscriptions';
import { queuesCommand } from './commands/queues';
import { CliError } from './errors';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export function buildProgram(): Command {
  const program = new Command('svc')
    .description(
      'Command line for the service: log in; manage organizations, projects, members, bots, API keys, queues and subscriptions.\n' +
        'Server: ORGS_URL (or SVC_URL), default http://localhost:3000. SVC_API_KEY authenticates instead of a login.',
    )
    .version(version)
    .showHelpAfterError('(add --help for usage)');
  program.addCommand(loginCommand());
  program.addCommand(logoutCommand());
  program.addCommand(orgsCommand());
  program.addCommand(projectsCommand());
  program.addCommand(membersCommand());
  program.addCommand(botsCommand());
  program.addCommand(queuesCommand());
  program.addCommand(new Command('iam').description('Identity and access').addCommand(apiKeysCommand()));
  program.addCommand(subscriptionsCommand());
  program.addCommand(auditCommand());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    process.stderr.write(`error: ${err instanceof CliError ? err.message : ((err as Error).stack ?? String(err))}\n`);
    process.exitCode = err instanceof CliError ? err.exitCode : 1;
  }
}
