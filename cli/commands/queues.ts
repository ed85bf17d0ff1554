import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { CliError } from '../errors';
import { formatInstant, table } from '../format';
import { ApiClient, ok } from '../http';
import { resolveOrganization, type Organization } from '../orgs';
import { out, say } from '../output';
import { collect, listProjects, matchOne } from '../refs';

type Options = { org?: string; project?: string; json?: boolean };
type Place = { org: Organization; project: { id: string; name: string } };
type Queue = { id: string; name: string; retentionSeconds: number; createdAt: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A queue's short id, as the console shows it: the API takes it wherever it takes the uuid. */
const QUEUE_SHORT_ID = /^que_[a-z0-9]{12}$/;

function withOptions(command: Command): Command {
  return command
    .option('--org <id-or-name>', 'organization to act in (default: the saved one, or your only one)')
    .option('--project <name-or-id>', 'project of the queue (default: the organization’s only project)')
    .option('--json', 'print JSON instead of text');
}

/**
 * The organization and project a command acts in. A project id is taken as given, so a key that may only publish
 * (QueuePublisher, which cannot list projects) still reaches its queues; a name is looked up.
 */
async function placeOf(api: ApiClient, options: Options): Promise<Place> {
  const org = await resolveOrganization(api, options.org);
  if (options.project && UUID.test(options.project))
    return { org, project: { id: options.project, name: options.project } };
  const projects = await listProjects(api, org.id);
  if (options.project) return { org, project: matchOne(projects, options.project, 'project', (p) => p.name, org.name) };
  if (projects.length === 1) return { org, project: projects[0] };
  throw new CliError(
    `${org.name} has ${projects.length ? 'several projects' : 'no projects'}; choose one with --project <name-or-id>.`,
  );
}

const path = (place: Place) => ({ orgId: place.org.id, projectId: place.project.id });

function listQueues(api: ApiClient, place: Place): Promise<Queue[]> {
  return api.listAll((query) =>
    ok(api.v1.GET('/v1/organizations/{orgId}/projects/{projectId}/queues', { params: { path: path(place), query } })),
  );
}

/** A queue by id or short id (read directly: a publisher may read a queue but not list them), else by name. */
async function resolveQueue(api: ApiClient, place: Place, ref: string): Promise<Queue> {
  if (UUID.test(ref) || QUEUE_SHORT_ID.test(ref)) {
    const { data, response } = await api.v1.GET('/v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}', {
      params: { path: { ...path(place), queueId: ref } },
    });
    if (data) return data;
    if (response.status !== 404)
      throw new CliError(`Could not read queue ${ref}: the server answered ${response.status}.`);
  }
  return matchOne(await listQueues(api, place), ref, 'queue', (q) => q.name, place.project.name);
}

/** Seconds as people say them: `4d`, `90m`, `45s`. */
function duration(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const)
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

/** `--data`: JSON text, or `@file` holding it. */
function dataOf(value: string): unknown {
  let text = value;
  if (value.startsWith('@')) {
    try {
      text = readFileSync(value.slice(1), 'utf8');
    } catch (err) {
      throw new CliError(`Could not read ${value.slice(1)}: ${(err as Error).message}`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliError(`--data is not JSON: ${(err as Error).message}`);
  }
}

/** `--attribute name=value`, repeated, as the message's attributes. */
function attributesOf(pairs: string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new CliError(`--attribute takes name=value, not "${pair}".`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

export function queuesCommand(): Command {
  const queues = new Command('queues').description('The queues of a project: list, create, delete, publish');

  withOptions(queues.command('list').description('List the queues of the project')).action(async (options: Options) => {
    const api = new ApiClient();
    const place = await placeOf(api, options);
    const list = await listQueues(api, place);
    if (options.json) out(`${JSON.stringify(list, null, 2)}\n`);
    else if (list.length === 0) say(`${place.project.name} has no queues yet.`);
    else
      out(
        table(
          ['NAME', 'RETENTION', 'CREATED', 'ID'],
          list.map((q) => [q.name, duration(q.retentionSeconds), formatInstant(q.createdAt), q.id]),
        ),
      );
  });

  withOptions(
    queues
      .command('create')
      .description('Create a queue and print its id')
      .argument('<name>', '1 to 63 lowercase letters, digits and hyphens, starting with a letter')
      .option('--retention <seconds>', 'how long a message is kept, 60 to 1209600 (default 345600, four days)', Number),
  ).action(async (name: string, options: Options & { retention?: number }) => {
    const api = new ApiClient();
    const place = await placeOf(api, options);
    const queue = await ok(
      api.v1.POST('/v1/organizations/{orgId}/projects/{projectId}/queues', {
        params: { path: path(place) },
        body: { name, ...(options.retention !== undefined ? { retentionSeconds: options.retention } : {}) },
      }),
    );
    out(options.json ? `${JSON.stringify(queue, null, 2)}\n` : `${queue.id}\n`);
    say(`Created queue ${queue.name} in ${place.project.name}; messages are kept ${duration(queue.retentionSeconds)}.`);
  });

  withOptions(
    queues.command('delete').description('Delete a queue no subscription reads from').argument('<queue>', 'name or id'),
  ).action(async (ref: string, options: Options) => {
    const api = new ApiClient();
    const place = await placeOf(api, options);
    const queue = await resolveQueue(api, place, ref);
    await ok(
      api.v1.DELETE('/v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}', {
        params: { path: { ...path(place), queueId: queue.id } },
      }),
    );
    say(`Deleted queue ${queue.name} (${queue.id}) and its messages.`);
  });

  withOptions(
    queues
      .command('publish')
      .description('Publish one message and print its id')
      .argument('<queue>', 'name or id')
      .requiredOption('--data <json|@file>', 'the message body: JSON, or @file holding JSON')
      .option('--attribute <name=value>', 'an attribute (repeat for more, at most 16)', collect, [])
      .option('--delay <seconds>', 'seconds before it may be delivered, 0 to 900', Number),
  ).action(async (ref: string, options: Options & { data: string; attribute: string[]; delay?: number }) => {
    const body = dataOf(options.data);
    const attributes = attributesOf(options.attribute);
    const api = new ApiClient();
    const place = await placeOf(api, options);
    const queue = await resolveQueue(api, place, ref);
    const message = {
      body,
      ...(attributes ? { attributes } : {}),
      ...(options.delay !== undefined ? { delaySeconds: options.delay } : {}),
    };
    const published = await ok(
      api.v1.POST('/v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}/messages', {
        params: { path: { ...path(place), queueId: queue.id } },
        body: { messages: [message] },
      }),
    );
    out(options.json ? `${JSON.stringify(published, null, 2)}\n` : `${published.messageIds[0]}\n`);
    say(`Published a message to ${queue.name}.`);
  });

  return queues;
}
