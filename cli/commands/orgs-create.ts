import type { Command } from 'commander';
import { CliError } from '../errors';
import { ApiClient, ok } from '../http';
import { out, say } from '../output';

/** `svc orgs create <name>`: the API takes it from a console session only, so a CLI login is told where to go. */
export function addOrgsCreate(orgs: Command): void {
  orgs
    .command('create')
    .description('Create an organization (the API allows it from a console session only)')
    .argument('<name>', 'the organization’s name')
    .option('--json', 'print JSON instead of text')
    .action(async (name: string, options: { json?: boolean }) => {
      const api = new ApiClient();
      const call = api.v1.POST('/v1/organizations', { body: { name } });
      // Keys and OAuth tokens are refused by design (PRODUCT.md): say where it can be done, not just "denied".
      if ((await call).response.status === 403)
        throw new CliError(
          `Creating an organization needs the console: sign in at ${api.server} and choose "New organization" in the` +
            ' organization switcher. The API refuses it to API keys and to `svc login`; nothing was created.',
        );
      const org = await ok(call);
      out(options.json ? `${JSON.stringify(org, null, 2)}\n` : `${org.id}\n`);
      say(`Created organization ${org.name}; you are its OrganizationAdmin.`);
    });
}
