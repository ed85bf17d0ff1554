import { Command, InvalidArgumentError } from 'commander';
import type { components } from '../../lib/api-types';
import { knownTarget } from '../../lib/subscriptions/known-target';
import { CliError } from '../errors';
import { formatInstant, table } from '../format';
import { ApiClient, ok } from '../http';
import { resolveOrganization, withOrgOptions, type Organization, type OrgOptions } from '../orgs';
import { out, say } from '../output';
import { collect, listProjects, matchOne, type Project } from '../refs';

type Subscription = components['schemas']['Subscription'];
type Where = { org: Organization; project: Project };
type ProjectOptions = OrgOptions & { project?: string };

/** `--project` after the organization's options: subscriptions live in a project. */
function withProjectOptions(command: Command): Command {
  return withOrgOptions(command).option(
    '--project <name-or-id>',
    'project to act in (default: the organization’s only one)',
  );
}

function wholeNumber(what: string, min: number, max: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}.`);
    return Number(value);
  };
}

/** The organization, then the project: --project by name or id, else the only one there is. */
async function resolveWhere(api: ApiClient, options: ProjectOptions): Promise<Where> {
  const org = await resolveOrganization(api, options.org);
  const projects = await listProjects(api, org.id);
  if (options.project) return { org, project: matchOne(projects, options.project, 'project', (p) => p.name, org.name) };
  if (projects.length === 1) return { org, project: projects[0] };
  throw new CliError(
    `${org.name} has ${projects.length} projects; choose one with --project <name-or-id>: ${projects.map((p) => p.name).join(', ')}.`,
  );
}

const path = (where: Where) => ({ orgId: where.org.id, projectId: where.project.id });

function listSubscriptions(api: ApiClient, where: Where): Promise<Subscription[]> {
  return api.listAll((query) =>
    ok(
      api.v1.GET('/v1/organizations/{orgId}/projects/{projectId}/subscriptions', {
        params: { path: path(where), query },
      }),
    ),
  );
}

/** A subscription by id or slug (`qsb_…`) among the project's. */
async function findSubscription(api: ApiClient, where: Where, ref: string): Promise<Subscription> {
  const all = await listSubscriptions(api, where);
  return matchOne(all, ref, 'subscription', (s) => s.slug, `${where.org.name}/${where.project.name}`);
}

const health = (s: Subscription) => (['healthy', 'failing'].includes(s.status.health) ? s.status.health : 'unknown');
function targetSaid(s: Subscription): string {
  const target = knownTarget(s.target);
  if (target.kind === 'https') return target.url;
  return target.kind === 'workflow' ? `workflow ${target.workflowId}` : 'unknown';
}

const subscriptionsTable = (list: Subscription[]) =>
  table(
    ['SLUG', 'STATE', 'HEALTH', 'TARGET', 'QUEUE', 'LAST SUCCESS', 'ID'],
    list.map((s) => [
      s.slug,
      s.state,
      health(s),
      targetSaid(s),
      s.queueId,
      formatInstant(s.status.lastSuccessAt),
      s.id,
    ]),
  );

type CreateOptions = ProjectOptions & {
  queue: string;
  url?: string;
  timeout?: number;
  workflow?: string;
  batchSize?: number;
  maxConcurrency?: number;
  paused?: boolean;
  maxAttempts?: number;
  minBackoff?: number;
  maxBackoff?: number;
};

function createBody(options: CreateOptions) {
  if (Boolean(options.url) === Boolean(options.workflow))
    throw new CliError('Give the target: --url <url> (an https receiver) or --workflow <id>, one of them.');
  const retryPolicy = {
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.minBackoff !== undefined ? { minBackoffSeconds: options.minBackoff } : {}),
    ...(options.maxBackoff !== undefined ? { maxBackoffSeconds: options.maxBackoff } : {}),
  };
  return {
    queueId: options.queue,
    target: options.url
      ? { kind: 'https' as const, url: options.url, ...(options.timeout ? { timeoutSeconds: options.timeout } : {}) }
      : { kind: 'workflow' as const, workflowId: options.workflow! },
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
    ...(options.paused ? { state: 'paused' as const } : {}),
    ...(Object.keys(retryPolicy).length > 0 ? { retryPolicy } : {}),
  };
}

function stateCommand(subscriptions: Command, verb: 'pause' | 'resume') {
  withProjectOptions(
    subscriptions
      .command(verb)
      .description(verb === 'pause' ? 'Pause a subscription: its backlog keeps growing' : 'Resume a subscription')
      .argument('<id-or-slug>', 'which subscription'),
  ).action(async (ref: string, options: ProjectOptions) => {
    const api = new ApiClient();
    const where = await resolveWhere(api, options);
    const sub = await findSubscription(api, where, ref);
    const params = { path: { ...path(where), subscriptionId: sub.id } };
    const changed = await ok(
      verb === 'pause'
        ? api.v1.POST('/v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/pause', { params })
        : api.v1.POST('/v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/resume', {
            params,
          }),
    );
    if (options.json) out(`${JSON.stringify(changed, null, 2)}\n`);
    say(
      changed.updatedAt === sub.updatedAt
        ? `Subscription ${sub.slug} was already ${changed.state}; nothing changed.`
        : `Subscription ${sub.slug} is now ${changed.state}.`,
    );
  });
}

export function subscriptionsCommand(): Command {
  const subscriptions = new Command('subscriptions').description(
    'Subscriptions deliver a queue’s messages to a target: list, create, pause, resume, dead letters',
  );

  withProjectOptions(subscriptions.command('list').description('List the subscriptions of a project')).action(
    async (options: ProjectOptions) => {
      const api = new ApiClient();
      const where = await resolveWhere(api, options);
      const list = await listSubscriptions(api, where);
      if (options.json) out(`${JSON.stringify(list, null, 2)}\n`);
      else if (list.length === 0) say(`${where.project.name} has no subscriptions yet.`);
      else out(subscriptionsTable(list));
    },
  );

  withProjectOptions(
    subscriptions
      .command('create')
      .description('Create a subscription of a queue and print its signing secret, once, on standard output')
      .requiredOption('--queue <id>', 'the queue whose messages it receives (one of the project’s)')
      .option('--url <url>', 'deliver to this https URL')
      .option(
        '--timeout <seconds>',
        'give up a delivery after this long, 1 to 60 (default 30)',
        wholeNumber('--timeout', 1, 60),
      )
      .option('--workflow <id>', 'deliver to this workflow instead')
      .option('--batch-size <n>', 'messages per delivery, 1 to 10 (default 10)', wholeNumber('--batch-size', 1, 10))
      .option(
        '--max-concurrency <n>',
        'deliveries in flight at once, 1 to 100 (default 10)',
        wholeNumber('--max-concurrency', 1, 100),
      )
      .option('--paused', 'create it paused: messages wait until it is resumed')
      .option(
        '--max-attempts <n>',
        'attempts before a message is dead-lettered, 1 to 100 (default 5)',
        wholeNumber('--max-attempts', 1, 100),
      )
      .option(
        '--min-backoff <seconds>',
        'first retry delay, 0 to 600 (default 10)',
        wholeNumber('--min-backoff', 0, 600),
      )
      .option(
        '--max-backoff <seconds>',
        'longest retry delay, 1 to 3600 (default 600)',
        wholeNumber('--max-backoff', 1, 3600),
      ),
  ).action(async (options: CreateOptions) => {
    const body = createBody(options);
    const api = new ApiClient();
    const where = await resolveWhere(api, options);
    const created = await ok(
      api.v1.POST('/v1/organizations/{orgId}/projects/{projectId}/subscriptions', {
        params: { path: path(where) },
        body,
      }),
    );
    if (options.json) out(`${JSON.stringify(created, null, 2)}\n`);
    else out(`${created.signingSecret}\n`);
    say(
      `Created subscription ${created.slug} (${created.id}) in ${where.org.name}/${where.project.name}, ${created.state}.`,
    );
    say('This is the only time its signing secret is shown: store it where the receiver checks signatures.');
  });

  stateCommand(subscriptions, 'pause');
  stateCommand(subscriptions, 'resume');

  withProjectOptions(
    subscriptions
      .command('dead-letters')
      .description('List a subscription’s dead letters, oldest first; --redrive sends them again')
      .argument('<id-or-slug>', 'which subscription')
      .option('--redrive', 'make the dead letters pending again (all of them, or those given with --message)')
      .option('--message <id>', 'with --redrive: only this dead letter (repeat for more)', collect),
  ).action(async (ref: string, options: ProjectOptions & { redrive?: boolean; message?: string[] }) => {
    const api = new ApiClient();
    const where = await resolveWhere(api, options);
    const sub = await findSubscription(api, where, ref);
    const params = { path: { ...path(where), subscriptionId: sub.id } };
    if (options.redrive) {
      const body = options.message?.length ? { messageIds: options.message } : {};
      const { redriven } = await ok(
        api.v1.POST(
          '/v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters/redrive',
          {
            params,
            body,
          },
        ),
      );
      if (options.json) out(`${JSON.stringify({ redriven }, null, 2)}\n`);
      say(`Redrove ${redriven} dead letter${redriven === 1 ? '' : 's'} of ${sub.slug}: they are delivered again.`);
      return;
    }
    const letters = await api.listAll((query) =>
      ok(
        api.v1.GET('/v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters', {
          params: { ...params, query },
        }),
      ),
    );
    if (options.json) out(`${JSON.stringify(letters, null, 2)}\n`);
    else if (letters.length === 0) say(`${sub.slug} has no dead letters.`);
    else
      out(
        table(
          ['MESSAGE', 'DEAD-LETTERED', 'ATTEMPTS', 'LAST ERROR'],
          letters.map((d) => [
            d.messageId,
            formatInstant(d.deadLetteredAt),
            String(d.attempts),
            d.lastError?.message ?? '',
          ]),
        ),
      );
  });

  return subscriptions;
}
