import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { ApiError, idNotFound } from '../errors';
import { idNounOf, isShortId, shortIdResourceOf, type ShortIdResource } from '../short-ids';
import type { Tenant } from './tenant';

const TABLES = { queue: t.queues, subscription: t.subscriptions, silence: t.silences } satisfies Record<
  ShortIdResource,
  unknown
>;

type Param = { name: string; resource: ShortIdResource; value: string; schema: z.ZodType };

const shapeOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> =>
  schema && 'shape' in schema ? (schema as unknown as z.ZodObject).shape : {};

/** The path parameters an operation declares with `resourceIdParam`, and what the request gave them. */
function resourceParams(schema: z.ZodType | undefined, params: Record<string, unknown>): Param[] {
  const shape = shapeOf(schema);
  return Object.entries(shape).flatMap(([name, field]) => {
    const resource = shortIdResourceOf(field as z.ZodType);
    const value = params[name];
    return resource && typeof value === 'string' ? [{ name, resource, value, schema: field as z.ZodType }] : [];
  });
}

/**
 * The uuid of the resource a path names by either id, in the tenant's organization (and project): another
 * tenant's resource is not found, like an unknown one. A lookup by the unique `slug` or the primary key.
 */
async function findId(tenant: Tenant, p: Param): Promise<string | null> {
  const table = TABLES[p.resource];
  const [row] = await (
    await getDb()
  )
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        eq(table.organizationId, tenant.organizationId),
        tenant.project ? eq(table.projectId, tenant.project.id) : undefined,
        isShortId(p.value) ? eq(table.slug, p.value) : eq(table.id, p.value),
      ),
    );
  return row?.id ?? null;
}

/** The 404 that names the id the caller sent, as they sent it. */
export const resourceNotFound = (p: Pick<Param, 'resource' | 'value'>, inProject: boolean) =>
  idNotFound(p.resource, p.value, inProject ? 'project' : 'organization');

/**
 * The 404 for a path parameter that is no id of its resource at all (`que_x`, `not-a-uuid`), naming what was
 * sent when it is short enough to quote; null when the malformed parameter is no declared resource id (those of
 * `resourceIdParam` and `uuidIdParam`).
 */
export function malformedResourceId(
  schema: z.ZodType | undefined,
  params: Record<string, string>,
  inProject: boolean,
): ApiError | null {
  for (const [name, field] of Object.entries(shapeOf(schema))) {
    const noun = idNounOf(field);
    const value = params[name];
    if (!noun || typeof value !== 'string' || field.safeParse(value).success) continue;
    return value.length <= 200 ? idNotFound(noun, value, inProject ? 'project' : 'organization') : null;
  }
  return null;
}

/**
 * The path's short ids replaced by their uuids, so a handler only ever sees uuids; an unknown short id is 404
 * naming it. Runs after every check of the pipeline, where an unknown uuid's 404 comes from the handler.
 */
export async function resolveShortIds<P>(schema: z.ZodType | undefined, params: P, tenant: Tenant | null): Promise<P> {
  const named = resourceParams(schema, params as Record<string, unknown>).filter((p) => isShortId(p.value));
  if (named.length === 0 || !tenant) return params;
  const out = { ...(params as Record<string, unknown>) };
  for (const p of named) {
    const id = await findId(tenant, p);
    if (!id) throw resourceNotFound(p, tenant.project !== null);
    out[p.name] = id;
  }
  return out as P;
}

/**
 * A handler's 404, named: when a resource the path names (by its uuid) does not exist in the tenant, the 404
 * names that id; any other error (or a 404 about something else, a dead letter of a subscription that exists)
 * stays as it was. Asked only on the way out of a 404, so a request that finds its resource pays nothing.
 */
export async function namedNotFound(
  err: unknown,
  schema: z.ZodType | undefined,
  params: unknown,
  tenant: Tenant | null,
): Promise<unknown> {
  if (!(err instanceof ApiError) || err.code !== 'not_found' || !tenant) return err;
  for (const p of resourceParams(schema, params as Record<string, unknown>)) {
    if (!(await findId(tenant, p))) return resourceNotFound(p, tenant.project !== null);
  }
  return err;
}
