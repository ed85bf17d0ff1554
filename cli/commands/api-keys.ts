import { Command, InvalidArgumentError } from 'commander';
import { looksLikeId, resolveApiKey, type ApiKey } from '../api-key-ref';
import { CliError } from '../errors';
import { formatInstant, table } from '../format';
import { ApiClient } from '../http';
import { resolveOrganization } from '../orgs';
import { out, say } from '../output';

type OrgOptions = { org?: string; json?: boolean };

/** Refused while parsing, before any request is made. */
export function parseExpiresInDays(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 365) {
    throw new InvalidArgumentError(
      'Must be a whole number of days from 1 to 365 (leave it out for a key that never expires).',
    );
  }
  return Number(value);
}

function withOrgOptions(command: Command): Command {
  return command
    .option('--org <id-or-name>', 'organization to act in (default: the saved one, or your only one)')
    .option('--json', 'print JSON instead of text');
}

const keysPath = (orgId: string) => `/v1/organizations/${orgId}/api-keys`;
const shown = (key: ApiKey) => `"${key.name}" (${key.prefix}…)`;
const owner = (key: ApiKey) => (key.owner.type === 'bot' ? `${key.owner.name} (bot)` : key.owner.name);
const expiry = (key: ApiKey) =>
  key.expiresAt ? `${formatInstant(key.expiresAt)}${key.expired ? ' (expired)' : ''}` : 'never';

function keysTable(keys: ApiKey[]): string {
  return table(
    ['NAME', 'PREFIX', 'OWNER', 'CREATED', 'EXPIRES', 'LAST USED', 'ID'],
    keys.map((k) => [
      k.name,
      `${k.prefix}…`,
      owner(k),
      formatInstant(k.createdAt),
      expiry(k),
      formatInstant(k.lastUsedAt),
      k.id,
    ]),
  );
}

async function findBot(api: ApiClient, orgId: string, ref: string): Promise<{ id: string; name: string }> {
  const bots = await api.listAll<{ id: string; name: string }>(`/v1/organizations/${orgId}/bots`);
  const bot = bots.find((b) => b.id === ref) ?? bots.find((b) => b.name === ref);
  if (!bot)
    throw new CliError(
      `No bot "${ref}" in this organization.${bots.length ? ` Bots: ${bots.map((b) => b.name).join(', ')}.` : ''}`,
    );
  return bot;
}

export function apiKeysCommand(): Command {
  const apiKeys = new Command('api-keys').description('Create, list and delete API keys (credentials for code)');

  withOrgOptions(
    apiKeys
      .command('create')
      .description('Create an API key and print it, once, on standard output')
      .argument('<name>', 'a name to recognise the key by (1 to 100 characters)')
      .option('--expires-in-days <days>', 'days until the key expires, 1 to 365 (default: never)', parseExpiresInDays)
      .option('--bot <bot-name-or-id>', 'create the key for a bot instead of yourself'),
  ).action(async (name: string, options: OrgOptions & { expiresInDays?: number; bot?: string }) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const bot = options.bot ? await findBot(api, org.id, options.bot) : undefined;
    const created = await api.request<{ apiKey: ApiKey; secret: string }>('POST', keysPath(org.id), {
      name,
      expiresInDays: options.expiresInDays ?? null,
      ...(bot ? { botId: bot.id } : {}),
    });
    if (options.json) out(`${JSON.stringify(created, null, 2)}\n`);
    else out(`${created.secret}\n`);
    const { apiKey } = created;
    say(
      `Created API key ${shown(apiKey)} for ${owner(apiKey)} in ${org.name}; ${apiKey.expiresAt ? `expires ${formatInstant(apiKey.expiresAt)}` : 'never expires'}.`,
    );
    say('This is the only time the key is shown: store it now.');
  });

  withOrgOptions(
    apiKeys.command('list').description('List the API keys you can see (all of the organization with apiKeys.list)'),
  ).action(async (options: OrgOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const keys = await api.listAll<ApiKey>(keysPath(org.id));
    if (options.json) out(`${JSON.stringify(keys, null, 2)}\n`);
    else if (keys.length === 0) say(`No API keys in ${org.name}.`);
    else out(keysTable(keys));
  });

  withOrgOptions(
    apiKeys
      .command('delete')
      .alias('revoke')
      .description('Revoke an API key, by id, exact name, or prefix (svc_ab12 or svc_ab12…)')
      .argument('<id-or-name-or-prefix>', 'which key'),
  ).action(async (ref: string, options: OrgOptions) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const match = resolveApiKey(await api.listAll<ApiKey>(keysPath(org.id)), ref);
    if (match.kind === 'ambiguous') {
      say(`"${ref}" matches ${match.keys.length} API keys by ${match.by}; nothing was deleted. Name one by its id:`);
      process.stderr.write(keysTable(match.keys));
      throw new CliError(`Ambiguous API key "${ref}".`);
    }
    if (match.kind === 'none' && !looksLikeId(ref))
      throw new CliError(`No API key in ${org.name} has the id, name or prefix "${ref}".`);
    // An id not among the keys listed is still sent: the server says whether it is unknown or not yours to delete.
    const id = match.kind === 'one' ? match.key.id : ref;
    await api.request('DELETE', `${keysPath(org.id)}/${encodeURIComponent(id)}`);
    if (options.json) out(`${JSON.stringify(match.kind === 'one' ? match.key : { id }, null, 2)}\n`);
    say(`Deleted API key ${match.kind === 'one' ? shown(match.key) : id}.`);
  });

  return apiKeys;
}
