// The drill's mixed load: the hot requests of the API (key lists, subscription and silence PATCHes, key creation).
import type { Caller } from './caller';

export type DemoIds = { org: string; project: string; subscriptions: string[]; silences: string[] };
type Callers = { session: Caller; key: Caller };

/** Acme's Production project, its HTTPS subscriptions and active silences (the demo data). */
export async function demoIds(caller: Caller): Promise<DemoIds> {
  type Page<T> = { items: T[] };
  const orgs = await caller.json<Page<{ id: string; name: string }>>('GET', '/v1/organizations');
  const org = orgs.items.find((o) => o.name === 'Acme')!.id;
  const projects = await caller.json<Page<{ id: string; name: string }>>('GET', `/v1/organizations/${org}/projects`);
  const project = projects.items.find((p) => p.name === 'Production')!.id;
  const base = `/v1/organizations/${org}/projects/${project}`;
  const subs = await caller.json<Page<{ id: string; target: { kind: string } }>>(
    'GET',
    `${base}/subscriptions?limit=50`,
  );
  const silences = await caller.json<Page<{ id: string }>>('GET', `${base}/obs/silences?state=active&limit=50`);
  const subscriptions = subs.items.filter((s) => s.target.kind === 'https').map((s) => s.id);
  if (!subscriptions.length || !silences.items.length) throw new Error('the demo data has no subscription or silence');
  return { org, project, subscriptions, silences: silences.items.map((s) => s.id) };
}

type Request = (c: Callers, ids: DemoIds, i: number) => Promise<{ status: number; body: unknown }>;

export const kinds = {
  'key list (session)': (c, ids) => c.session.call('GET', `/v1/organizations/${ids.org}/api-keys?limit=20`),
  'key list (API key)': (c, ids) => c.key.call('GET', `/v1/organizations/${ids.org}/api-keys?limit=20`),
  'subscription PATCH': (c, ids, i) =>
    c.session.call(
      'PATCH',
      `/v1/organizations/${ids.org}/projects/${ids.project}/subscriptions/${ids.subscriptions[i % ids.subscriptions.length]}`,
      { batchSize: (i % 10) + 1 },
    ),
  'silence PATCH': (c, ids, i) =>
    c.session.call(
      'PATCH',
      `/v1/organizations/${ids.org}/projects/${ids.project}/obs/silences/${ids.silences[i % ids.silences.length]}`,
      { comment: `drill ${i}` },
    ),
  'key creation': (c, ids, i) =>
    c.session.call('POST', `/v1/organizations/${ids.org}/api-keys`, { name: `drill load ${i}` }),
} satisfies Record<string, Request>;

export type Kind = keyof typeof kinds;

// Of every 10 requests: 4 key lists (one with an API key), 2 subscription PATCHes, 2 silence PATCHes, 1 creation.
const MIX: Kind[] = [
  'key list (session)',
  'key list (API key)',
  'subscription PATCH',
  'silence PATCH',
  'key list (session)',
  'key creation',
  'subscription PATCH',
  'silence PATCH',
  'key list (session)',
  'key list (session)',
];

/** `total` requests, `concurrency` at a time; request i goes to `pick(i)`, of kind `only` or the mix's. */
export async function runLoad(
  total: number,
  concurrency: number,
  pick: (i: number) => Callers,
  ids: DemoIds,
  only?: Kind,
) {
  const byKind = Object.fromEntries(Object.keys(kinds).map((k) => [k, { requests: 0, failed: 0 }])) as Record<
    Kind,
    { requests: number; failed: number }
  >;
  const failures: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const kind = only ?? MIX[i % MIX.length];
      const { status, body } = await kinds[kind](pick(i), ids, i);
      byKind[kind].requests++;
      if (status < 200 || status > 299) {
        byKind[kind].failed++;
        failures.push(`${kind}: ${status} ${JSON.stringify(body).slice(0, 160)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { byKind, failures, ms: performance.now() - started };
}

type Cost = { pgCpuMs: number; appCpuMs: number; commits: number; walSyncs: number };

/**
 * The mix's cost per request (MIX's weights) and where one PostgreSQL saturates: its backends' CPU per request
 * gives requests/s per PostgreSQL core, an instance's CPU per request its requests/s (one core: Node's one
 * thread), and their ratio the instances one PostgreSQL core keeps busy.
 */
export function capacity(costs: Map<Kind, Cost>): string {
  const mix = { pgCpuMs: 0, appCpuMs: 0, commits: 0, walSyncs: 0 };
  for (const kind of MIX)
    for (const key of Object.keys(mix) as (keyof Cost)[]) mix[key] += costs.get(kind)![key] / MIX.length;
  const perPgCore = 1000 / mix.pgCpuMs;
  const perInstance = 1000 / mix.appCpuMs;
  return [
    `\nThe mix per request: ${mix.pgCpuMs.toFixed(2)} ms of PostgreSQL CPU, ${mix.appCpuMs.toFixed(2)} ms of instance CPU,`,
    `${mix.commits.toFixed(2)} commits, ${mix.walSyncs.toFixed(2)} WAL flushes.`,
    `One PostgreSQL core: ~${Math.round(perPgCore)} requests/s; one instance (one core): ~${Math.round(perInstance)} requests/s;`,
    `so ~${(perPgCore / perInstance).toFixed(1)} busy instances per PostgreSQL core (at ${Math.round(perPgCore * mix.commits)} commits/s, ${Math.round(perPgCore * mix.walSyncs)} WAL flushes/s).`,
  ].join('\n');
}
