import { parse as parseFilter, type Filter } from 'scim2-parse-filter';
import { scimPatch, ScimError as PatchError, type ScimPatchOperation } from 'scim-patch';
import { textProblem } from '../http/text';
import { LIST_SCHEMA, ScimError, scimBoolean, toScimUser, type ScimUser } from './resource';
import { scimJson, type ScimContext } from './http';
import { findScimUser, listScimUsers, SCIM_FILTER_ATTRIBUTES, updateScimUser, type ScimEqFilter } from './service';

const MAX_COUNT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function eqFilter(text: string | null): ScimEqFilter | undefined {
  if (text === null || text.trim() === '') return undefined;
  let filter: Filter;
  try {
    filter = parseFilter(text);
  } catch {
    throw new ScimError(400, 'The filter is not valid SCIM filter syntax.', 'invalidFilter');
  }
  const attribute =
    'attrPath' in filter
      ? filter.attrPath.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:user:/, '')
      : '';
  if (
    filter.op !== 'eq' ||
    !('compValue' in filter) ||
    typeof filter.compValue !== 'string' ||
    !SCIM_FILTER_ATTRIBUTES.includes(attribute as never)
  ) {
    throw new ScimError(
      400,
      'Only `userName eq "…"`, `externalId eq "…"` and `id eq "…"` filters are supported.',
      'invalidFilter',
    );
  }
  const problem = textProblem(filter.compValue);
  if (problem) throw new ScimError(400, `The filter value is not valid: ${problem}`, 'invalidFilter');
  return { attribute: attribute as ScimEqFilter['attribute'], value: filter.compValue };
}

function positiveInt(text: string | null, fallback: number): number {
  const n = text === null ? NaN : Number.parseInt(text, 10);
  return Number.isFinite(n) ? n : fallback;
}

/** GET /scim/v2/Users: the organization's members, 1-based `startIndex` and `count` as RFC 7644 §3.4.2.4. */
export async function listUsers({ req, organizationId, baseUrl }: ScimContext): Promise<Response> {
  const search = req.nextUrl.searchParams;
  const filter = eqFilter(search.get('filter'));
  const startIndex = Math.max(1, positiveInt(search.get('startIndex'), 1));
  const count = Math.min(MAX_COUNT, Math.max(0, positiveInt(search.get('count'), 100)));
  const { total, rows } = await listScimUsers(organizationId, filter, { offset: startIndex - 1, limit: count });
  return scimJson({
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((r) => toScimUser(r, baseUrl)),
  });
}

async function userOr404(organizationId: string, id: string | undefined) {
  const row = id && UUID.test(id) ? await findScimUser(organizationId, id) : null;
  if (!row) throw new ScimError(404, `User ${id ?? ''} not found.`);
  return row;
}

export async function getUser({ organizationId, baseUrl, params }: ScimContext): Promise<Response> {
  return scimJson(toScimUser(await userOr404(organizationId, params.id), baseUrl));
}

function activeOf(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  const active = scimBoolean(value);
  if (active === undefined) throw new ScimError(400, '`active` must be true or false.', 'invalidValue');
  return active;
}

function externalIdOf(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value === 'string') return value;
  throw new ScimError(400, '`externalId` must be a string.', 'invalidValue');
}

/** Okta and Entra spell ops and `active` several ways ("Replace", path "Active"): bring them to one. */
function normalizeOperation(raw: unknown): ScimPatchOperation {
  if (typeof raw !== 'object' || raw === null || typeof (raw as { op?: unknown }).op !== 'string') {
    throw new ScimError(400, 'Each operation needs an `op`.', 'invalidSyntax');
  }
  const op = raw as { op: string; path?: unknown; value?: unknown };
  const name = op.op.toLowerCase();
  if (name !== 'add' && name !== 'replace' && name !== 'remove')
    throw new ScimError(400, `Unknown op "${op.op}".`, 'invalidSyntax');
  let path = typeof op.path === 'string' ? op.path : undefined;
  if (path && /^active$/i.test(path)) path = 'active';
  let value = op.value;
  if (!path && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    value = Object.fromEntries(Object.entries(value).map(([k, v]) => [/^active$/i.test(k) ? 'active' : k, v]));
  }
  return { op: name, ...(path ? { path } : {}), ...(value !== undefined ? { value } : {}) } as ScimPatchOperation;
}

/** What a PATCH changes that this service keeps: `active` and `externalId` (undefined: unchanged). */
export function patchChanges(current: ScimUser, payload: unknown): { active?: boolean; externalId?: string | null } {
  const body = payload as { Operations?: unknown; operations?: unknown } | null;
  const operations = body?.Operations ?? body?.operations;
  if (!Array.isArray(operations)) throw new ScimError(400, 'The body needs an `Operations` array.', 'invalidSyntax');
  let patched: ScimUser;
  try {
    patched = scimPatch(current, operations.map(normalizeOperation), { mutateDocument: false });
  } catch (err) {
    if (err instanceof PatchError) throw new ScimError(400, err.message, err.scimCode ?? 'invalidValue');
    throw err;
  }
  return {
    active: patched.active === current.active ? undefined : activeOf(patched.active),
    externalId: patched.externalId === current.externalId ? undefined : (externalIdOf(patched.externalId) ?? null),
  };
}

/** PATCH /scim/v2/Users/{id}: applies the operations to the user's SCIM form and keeps what changed. */
export async function patchUser({ organizationId, baseUrl, params, body, audit }: ScimContext): Promise<Response> {
  const row = await userOr404(organizationId, params.id);
  const { active, externalId } = patchChanges(toScimUser(row, baseUrl), body());
  if (active !== undefined || externalId !== undefined) await updateScimUser(row.id, { active, externalId }, audit);
  return scimJson(toScimUser(await userOr404(organizationId, row.id), baseUrl));
}

/** PUT /scim/v2/Users/{id}: the provider's full view of the user; `active` and `externalId` are applied. */
export async function replaceUser({ organizationId, baseUrl, params, body, audit }: ScimContext): Promise<Response> {
  const row = await userOr404(organizationId, params.id);
  const user = body();
  if (typeof user !== 'object' || user === null || Array.isArray(user))
    throw new ScimError(400, 'The body must be a User.', 'invalidSyntax');
  const fields = user as Record<string, unknown>;
  const active = activeOf(fields.active);
  const externalId = externalIdOf(fields.externalId);
  if (active !== undefined || externalId !== undefined) await updateScimUser(row.id, { active, externalId }, audit);
  return scimJson(toScimUser(await userOr404(organizationId, row.id), baseUrl));
}
