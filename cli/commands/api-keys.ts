import { Command, InvalidArgumentError } from 'commander';
import type { CreateApiKeyInput } from '../../lib/api-keys/schema';
import { keySearchText, looksLikeId, resolveApiKey, type ApiKey } from '../api-key-ref';
import { CliError } from '../errors';
import { formatInstant, table } from '../format';
import { ApiClient, ok } from '../http';
import { resolveOrganization, withOrgOptions, type OrgOptions } from '../orgs';
import { out, say } from '../output';

/** Refused while parsing, before any request is made. */
export function parseExpiresInDays(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 365) {
    throw new InvalidArgumentError(
      'Must be a whole number of days from 1 to 365 (leave it out for a key that never expires).',
    );
  }
  return Number(value);
}

const shown = (key: ApiKey) => `"${key.name}" (${key.prefix}…)`;
const owner = (key: ApiKey) => (key.owner.type === 'bot' ? `${key.owner.name} (bot)` : key.owner.name);
/** When the key stops working: a roll's stopsAt, else its expiry, flagged when it is soon or past. */
const expiry = (key: ApiKey) => {
  if (key.stopsAt) return `${formatInstant(key.stopsAt)} (rolled)`;
  if (!key.expiresAt) return 'never';
  return `${formatInstant(key.expiresAt)}${key.expired ? ' (expired)' : key.expiringSoon ? ' (expiring soon)' : ''}`;
};

type Usage = { days: { date: string; requests: number }[] };
const total = (usage: Usage, days: number) => String(usage.days.slice(-days).reduce((n, d) => n + d.requests, 0));

function keysTable(keys: ApiKey[], usage?: Map<string, Usage>): string {
  const usageHeader = usage ? ['REQUESTS 7D', 'REQUESTS 30D'] : [];
  return table(
    ['NAME', 'PREFIX', 'OWNER', 'CREATED', 'EXPIRES', 'LAST USED', ...usageHeader, 'ID'],
    keys.map((k) => {
      const u = usage?.get(k.id);
      return [
        k.name,
        `${k.prefix}…`,
        owner(k),
        formatInstant(k.createdAt),
        expiry(k),
        formatInstant(k.lastUsedAt),
        ...(u ? [total(u, 7), total(u, 30)] : []),
        k.id,
      ];
    }),
  );
}

/** `duration`: seconds, or a number with s, m, h or d (`90s`, `15m`, `24h`, `7d`), at most 7 days. */
export function parseGrace(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  const unit = { '': 1, s: 1, m: 60, h: 3_600, d: 86_400 }[match?.[2] ?? ''] ?? 1;
  const seconds = match ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(seconds) || seconds > 604_800)
    throw new InvalidArgumentError('Must be a duration of at most 7 days: 0, 90s, 15m, 24h or 7d.');
  return seconds;
}

/** The one key a reference names among the listed ones; ambiguous prints the matches and changes nothing. */
async function pickKey(api: ApiClient, org: { id: string; name: string }, ref: string, verb: string) {
  const q = keySearchText(ref);
  const match = resolveApiKey(await listKeys(api, org.id, q === null ? {} : { q }), ref);
  if (match.kind === 'ambiguous') {
    say(`"${ref}" matches ${match.keys.length} API keys by ${match.by}; nothing was ${verb}. Name one by its id:`);
    process.stderr.write(keysTable(match.keys));
    throw new CliError(`Ambiguous API key "${ref}".`);
  }
  if (match.kind === 'none' && !looksLikeId(ref))
    throw new CliError(`No API key in ${org.name} has the id, name or prefix "${ref}".`);
  // An id not among the keys listed is still sent: the server says whether it is unknown or not yours.
  return match.kind === 'one' ? { id: match.key.id, key: match.key } : { id: ref, key: null };
}

async function findBot(api: ApiClient, orgId: string, ref: string): Promise<{ id: string; name: string }> {
  const bots = await api.listAll((query) =>
    ok(api.v1.GET('/v1/organizations/{orgId}/bots', { params: { path: { orgId }, query } })),
  );
  const bot = bots.find((b) => b.id === ref) ?? bots.find((b) => b.name === ref);
  if (!bot)
    throw new CliError(
      `No bot "${ref}" in this organization.${bots.length ? ` Bots: ${bots.map((b) => b.name).join(', ')}.` : ''}`,
    );
  return bot;
}

/** The keys the caller can see, every page; `expiring: 'soon'` keeps those that expire within 7 days, `q` those it finds. */
function listKeys(api: ApiClient, orgId: string, filters: { expiring?: 'soon'; q?: string } = {}): Promise<ApiKey[]> {
  return api.listAll((query) =>
    ok(
      api.v1.GET('/v1/organizations/{orgId}/api-keys', {
        params: { path: { orgId }, query: { ...query, ...filters } },
      }),
    ),
  );
}

/** Commander's collector for an option given several times (`--permission a --permission b`). */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The projects named by name or id, refused before the key is created when one is not in the organization. */
async function findProjects(api: ApiClient, orgId: string, refs: string[]): Promise<string[]> {
  const projects = await api.listAll((query) =>
    ok(api.v1.GET('/v1/organizations/{orgId}/projects', { params: { path: { orgId }, query } })),
  );
  return refs.map((ref) => {
    const project = projects.find((p) => p.id === ref) ?? projects.find((p) => p.name === ref);
    if (!project)
      throw new CliError(
        `No project "${ref}" in this organization. Projects: ${projects.map((p) => p.name).join(', ')}.`,
      );
    return project.id;
  });
}

type RestrictionOptions = { permission?: string[]; project?: string[]; allowIp?: string[] };
type Permission = NonNullable<ApiKey['permissions']>[number] & NonNullable<CreateApiKeyInput['permissions']>[number];

/** The restriction fields of the create body: each flag left out is no restriction on that axis. */
async function restrictionsOf(api: ApiClient, orgId: string, options: RestrictionOptions) {
  return {
    // The server names an unknown permission at its path; the CLI passes the names on as given.
    ...(options.permission?.length ? { permissions: options.permission as Permission[] } : {}),
    ...(options.project?.length ? { projectIds: await findProjects(api, orgId, options.project) } : {}),
    ...(options.allowIp?.length ? { allowedIps: options.allowIp } : {}),
  };
}

const restrictionsSaid = (key: ApiKey) =>
  key.permissions || key.projectIds || key.allowedIps
    ? `Restricted to ${[
        key.permissions && `permissions ${key.permissions.join(', ')}`,
        key.projectIds && `${key.projectIds.length} project(s)`,
        key.allowedIps && `addresses ${key.allowedIps.join(', ')}`,
      ]
        .filter(Boolean)
        .join('; ')}.`
    : 'Full access: everything its owner may do.';

export function apiKeysCommand(): Command {
  const apiKeys = new Command('api-keys').description('Create, list, roll and delete API keys (credentials for code)');

  withOrgOptions(
    apiKeys
      .command('create')
      .description('Create an API key and print it, once, on standard output')
      .argument('<name>', 'a name to recognise the key by (1 to 100 characters)')
      .option('--expires-in-days <days>', 'days until the key expires, 1 to 365 (default: never)', parseExpiresInDays)
      .option('--bot <bot-name-or-id>', 'create the key for a bot instead of yourself')
      .option('--permission <name>', 'only this permission of the owner’s (repeat for more; default: all)', collect)
      .option('--project <name-or-id>', 'only in this project (repeat for more; default: every project)', collect)
      .option('--allow-ip <cidr>', 'only from this address or range (repeat for more; default: anywhere)', collect),
  ).action(
    async (name: string, options: OrgOptions & RestrictionOptions & { expiresInDays?: number; bot?: string }) => {
      const api = new ApiClient();
      const org = await resolveOrganization(api, options.org);
      const bot = options.bot ? await findBot(api, org.id, options.bot) : undefined;
      const restrictions = await restrictionsOf(api, org.id, options);
      const created = await ok(
        api.v1.POST('/v1/organizations/{orgId}/api-keys', {
          params: { path: { orgId: org.id } },
          body: {
            name,
            expiresInDays: options.expiresInDays ?? null,
            ...(bot ? { botId: bot.id } : {}),
            ...restrictions,
          },
        }),
      );
      if (options.json) out(`${JSON.stringify(created, null, 2)}\n`);
      else out(`${created.secret}\n`);
      const { apiKey } = created;
      say(
        `Created API key ${shown(apiKey)} for ${owner(apiKey)} in ${org.name}; ${apiKey.expiresAt ? `expires ${formatInstant(apiKey.expiresAt)}` : 'never expires'}.`,
      );
      say(restrictionsSaid(apiKey));
      say('This is the only time the key is shown: store it now.');
    },
  );

  withOrgOptions(
    apiKeys
      .command('list')
      .description('List the API keys you can see (all of the organization with apiKeys.list)')
      .option('--expiring-soon', 'only keys that expire within 7 days')
      .option('--usage', 'add requests made with each key in the last 7 and 30 UTC days'),
  ).action(async (options: OrgOptions & { expiringSoon?: boolean; usage?: boolean }) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const keys = await listKeys(api, org.id, { expiring: options.expiringSoon ? 'soon' : undefined });
    const usage = options.usage
      ? new Map(
          await Promise.all(
            keys.map(
              async (k) =>
                [
                  k.id,
                  await ok(
                    api.v1.GET('/v1/organizations/{orgId}/api-keys/{keyId}/usage', {
                      params: { path: { orgId: org.id, keyId: k.id } },
                    }),
                  ),
                ] as const,
            ),
          ),
        )
      : undefined;
    if (options.json)
      out(`${JSON.stringify(usage ? keys.map((k) => ({ ...k, usage: usage.get(k.id) })) : keys, null, 2)}\n`);
    else if (keys.length === 0)
      say(`No API keys in ${org.name}${options.expiringSoon ? ' expire within 7 days' : ''}.`);
    else out(keysTable(keys, usage));
  });

  withOrgOptions(
    apiKeys
      .command('roll')
      .description('Replace an API key with a new one (printed once on standard output); the old one works for --grace')
      .argument('<id-or-name-or-prefix>', 'which key')
      .option(
        '--grace <duration>',
        'how long the old key keeps working: 0 (default), 90s, 15m, 24h, up to 7d',
        parseGrace,
      ),
  ).action(async (ref: string, options: OrgOptions & { grace?: number }) => {
    const api = new ApiClient();
    const org = await resolveOrganization(api, options.org);
    const { id } = await pickKey(api, org, ref, 'rolled');
    const rolled = await ok(
      api.v1.POST('/v1/organizations/{orgId}/api-keys/{keyId}/roll', {
        params: { path: { orgId: org.id, keyId: id } },
        body: { gracePeriodSeconds: options.grace ?? 0 },
      }),
    );
    out(options.json ? `${JSON.stringify(rolled, null, 2)}\n` : `${rolled.secret}\n`);
    const { apiKey, previous } = rolled;
    say(`Rolled API key ${shown(previous)}: the new key is ${apiKey.prefix}…; store it now, it is shown only once.`);
    say(
      options.grace
        ? `The old key works until ${formatInstant(previous.stopsAt)}; move your programs to the new one before then.`
        : 'The old key stopped working now.',
    );
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
    const { id, key } = await pickKey(api, org, ref, 'deleted');
    await ok(
      api.v1.DELETE('/v1/organizations/{orgId}/api-keys/{keyId}', { params: { path: { orgId: org.id, keyId: id } } }),
    );
    if (options.json) out(`${JSON.stringify(key ?? { id }, null, 2)}\n`);
    say(`Deleted API key ${key ? shown(key) : id}.`);
  });

  return apiKeys;
}
