import { randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { z } from 'zod';
import type { Operation } from '../../lib/pipeline/operation';
import { SHORT_ID_PREFIXES, shortIdResourceOf, type ShortIdResource } from '../../lib/short-ids';
import { allOperations } from '../../server/operations';
import { bearer, expect, expectError, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { createKey } from '../support/api-keys';
import { createQueue, queueName, queueNamed } from '../support/queues';
import { inHours, listAll, productionSilences, silencesPath } from '../support/silences';
import { createSub, loadDemoSubs } from '../support/subscriptions';

// One id everywhere (PRODUCT.md, "The first hour"): every /v1 path that takes the id of a resource with a short id
// takes either form, and a 404 names the id it did not find. The operations come from the registry, so a new one
// that takes such an id is swept without a new test (a body it needs goes in REQUESTS).

type Ref = { id: string; slug: string };
type Named = { name: string; resource: ShortIdResource };

const nameOf = (op: Operation) => `${op.method} ${op.path}`;

/** The path parameters of an operation that take a short id, read from its schema as the pipeline reads them. */
function shortIdParams(op: Operation): Named[] {
  const shape = op.params && 'shape' in op.params ? (op.params as unknown as z.ZodObject).shape : {};
  return Object.entries(shape).flatMap(([name, schema]) => {
    const resource = shortIdResourceOf(schema as z.ZodType);
    return resource ? [{ name, resource }] : [];
  });
}

const OPERATIONS = allOperations
  .map((op) => ({ op, named: shortIdParams(op) }))
  .filter(({ named }) => named.length > 0);

/** The body of a request that succeeds, where `{}` would not (or would prove nothing). */
const REQUESTS: Record<string, { body: unknown }> = {
  'PATCH /v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}': { body: { retentionSeconds: 3600 } },
  'POST /v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}/messages': {
    body: { messages: [{ body: { short: 'ids' } }] },
  },
};

/** A dead letter's id is no short-id resource: a random one reaches the handler, whose 404 is about it. */
const DEAD_LETTER =
  'DELETE /v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}/dead-letters/{messageId}';

const randomShortId = (resource: ShortIdResource) =>
  `${SHORT_ID_PREFIXES[resource]}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const missing = (resource: ShortIdResource, id: string) => `No ${resource} ${id} in this project.`;

async function expectNamed404(res: APIResponse, resource: ShortIdResource, id: string, label: string) {
  const error = await expectError(res, 404, 'not_found');
  expect(error.message, label).toBe(missing(resource, id));
}

type World = {
  key: APIRequestContext;
  demo: Demo;
  /** Another organization's resources (Globex), and another project's (Staging; silences there are not offered). */
  elsewhere: { label: string; refs: Partial<Record<ShortIdResource, Ref>> }[];
};

/** Fresh resources for one operation, so a delete or a change touches only the test's own. */
async function freshResources(w: World, named: Named[]): Promise<Record<ShortIdResource, Ref | undefined>> {
  const needs = new Set(named.map((n) => n.resource));
  const { acme, production } = w.demo;
  const queue =
    needs.has('queue') || needs.has('subscription')
      ? await createQueue(w.key, acme, production, { name: queueName('short-ids') })
      : undefined;
  const subscription =
    needs.has('subscription') && queue
      ? await createSub(w.key, acme, production, {
          queueId: queue.id,
          state: 'paused',
          target: { kind: 'https', url: 'http://127.0.0.1:9/receiver', timeoutSeconds: 5 },
        })
      : undefined;
  let silence: Ref | undefined;
  if (needs.has('silence')) {
    const res = await w.key.post(productionSilences(w.demo), {
      data: {
        comment: 'short ids test',
        matchers: [{ label: 'alertname', op: '=', value: `short-ids-${randomUUID()}` }],
        endsAt: inHours(1),
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    silence = (await res.json()) as Ref;
  }
  return { queue, subscription, silence };
}

/** Deletes what an operation left of its fresh resources (a subscription before its queue). */
async function cleanUp(w: World, refs: Record<ShortIdResource, Ref | undefined>) {
  const base = `/v1/organizations/${w.demo.acme}/projects/${w.demo.production}`;
  if (refs.subscription) await w.key.delete(`${base}/subscriptions/${refs.subscription.id}`);
  if (refs.queue) await w.key.delete(`${base}/queues/${refs.queue.id}`);
  if (refs.silence) await w.key.delete(`${base}/obs/silences/${refs.silence.id}`);
}

function urlOf(w: World, op: Operation, ids: Record<string, string>): string {
  const samples: Record<string, string> = {
    orgId: w.demo.acme,
    projectId: w.demo.production,
    messageId: randomUUID(),
    ...ids,
  };
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in samples)) throw new Error(`${nameOf(op)}: no sample for {${name}}; add one`);
    return samples[name];
  });
}

const send = (w: World, op: Operation, url: string) =>
  w.key.fetch(url, {
    method: op.method,
    data: op.body ? (REQUESTS[nameOf(op)]?.body ?? {}) : undefined,
  });

test.describe('short ids on every path that takes an id', () => {
  let w: World;
  let ada: APIRequestContext;
  let gil: APIRequestContext;

  test.beforeAll(async () => {
    const demo = await loadDemo();
    ada = await sessionFor('ada');
    gil = await sessionFor('gil');
    // A key, not the session: rotating a secret asks a session for a recent sign-in, never a bearer.
    const { secret } = await createKey(ada, demo.acme, { name: `short ids ${Date.now()}`, expiresInDays: 1 });
    const subs = await loadDemoSubs(demo);
    const [globexSilence] = await listAll(gil, silencesPath(demo.globex, demo.globexProject));
    w = {
      key: await bearer(secret),
      demo,
      elsewhere: [
        {
          label: 'another organization’s',
          refs: {
            queue: await queueNamed(gil, demo.globex, demo.globexProject, 'events'),
            subscription: subs.globex,
            silence: globexSilence,
          },
        },
        {
          label: 'another project’s',
          refs: { queue: await queueNamed(ada, demo.acme, demo.staging, 'events'), subscription: subs.staging },
        },
      ],
    };
  });
  test.afterAll(async () => {
    await w?.key.dispose();
    await ada?.dispose();
    await gil?.dispose();
  });

  test('the registry names the operations: queues, subscriptions and silences, read, change and delete', () => {
    const names = OPERATIONS.map(({ op }) => nameOf(op));
    for (const resource of Object.keys(SHORT_ID_PREFIXES) as ShortIdResource[]) {
      const methods = OPERATIONS.filter(({ named }) => named.some((n) => n.resource === resource)).map(
        ({ op }) => op.method,
      );
      expect(methods, resource).toEqual(expect.arrayContaining(['GET', 'PATCH', 'DELETE']));
    }
    // Queues (4), subscriptions (11), silences (3), as of this writing: a new one only adds to these.
    expect(names.length).toBeGreaterThanOrEqual(18);
  });

  for (const { op, named } of OPERATIONS) {
    test(`${nameOf(op)}: by short id as by uuid; a 404 names the id it did not find`, async () => {
      const refs = await freshResources(w, named);
      const ref = (n: Named) => refs[n.resource]!;
      try {
        // Every other parameter by its uuid, the one under test by each id that is not there.
        for (const n of named) {
          const ids = Object.fromEntries(named.map((m) => [m.name, ref(m).id]));
          const unknown = [
            { label: 'an unknown short id', id: randomShortId(n.resource) },
            { label: 'an unknown uuid', id: randomUUID() },
            { label: 'a malformed short id', id: `${SHORT_ID_PREFIXES[n.resource]}_nope` },
            ...w.elsewhere.flatMap(({ label, refs: there }) => {
              const other = there[n.resource];
              return other
                ? [
                    { label: `${label} short id`, id: other.slug },
                    { label: `${label} uuid`, id: other.id },
                  ]
                : [];
            }),
          ];
          for (const { label, id } of unknown) {
            const res = await send(w, op, urlOf(w, op, { ...ids, [n.name]: id }));
            await expectNamed404(res, n.resource, id, `${nameOf(op)} with ${label} for {${n.name}}`);
          }
        }

        // Every parameter by its short id: the operation reaches the resource and answers with its uuid.
        const bySlug = Object.fromEntries(named.map((n) => [n.name, ref(n).slug]));
        const res = await send(w, op, urlOf(w, op, bySlug));
        const text = await res.text();
        if (nameOf(op) === DEAD_LETTER) {
          const error = await expectError(res, 404, 'not_found');
          expect(error.message, 'the 404 is the dead letter’s: the subscription was found').not.toContain('qsb_');
          return;
        }
        expect(res.status(), `${nameOf(op)} by short id: ${text}`).toBe(op.success.status);
        const body = text ? (JSON.parse(text) as { id?: string; slug?: string }) : {};
        for (const n of named) {
          if (body.slug === ref(n).slug) expect(body.id, 'the answer carries the uuid').toBe(ref(n).id);
        }
        if (nameOf(op) in REQUESTS && op.method === 'PATCH') expect(body).toMatchObject({ retentionSeconds: 3600 });

        // A delete by short id deleted that resource: its uuid is now unknown, and the 404 names it.
        const last = named.at(-1)!;
        if (op.method === 'DELETE' && op.path.endsWith(`{${last.name}}`) && last.resource !== 'silence') {
          const gone = await w.key.get(urlOf(w, op, Object.fromEntries(named.map((n) => [n.name, ref(n).id]))));
          await expectNamed404(gone, last.resource, ref(last).id, `${nameOf(op)}: read after the delete`);
        }
      } finally {
        await cleanUp(w, refs);
      }
    });
  }

  test('a silence expired by short id reads as expired by its uuid', async ({ demo }) => {
    const { silence } = await freshResources(w, [{ name: 'silenceId', resource: 'silence' }]);
    const path = productionSilences(demo);
    expect((await w.key.delete(`${path}/${silence!.slug}`)).status()).toBe(200);
    const read = (await (await w.key.get(`${path}/${silence!.id}`)).json()) as { state: string; slug: string };
    expect(read).toMatchObject({ state: 'expired', slug: silence!.slug });
  });
});
