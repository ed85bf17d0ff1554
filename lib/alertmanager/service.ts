import { z } from 'zod';
import type { AuditSource } from '../db/audit-types';
import type { Principal } from '../auth/principal';
import type { Permission } from '../permissions';
import { getDb } from '../db/client';
import { ApiError, invalidRequest, notFound, type Issue } from '../errors';
import { validateInput } from '../http/validate';
import { createSilence, expireSilence } from '../silences/lifecycle-service';
import { createSilenceBody, type CreateSilenceBody, type Silence } from '../silences/schema';
import { listSilences } from '../silences/list-service';
import { getSilence, updateSilence, type SilenceScope } from '../silences/service';
import { formatInstant } from '../silences/time';
import type { Matcher } from '../silences/matchers';
import { passesFilters, toAmMatcher, toMatcher } from './matchers';
import type { GettableSilence, PostableSilence } from './model';
import { parseRfc3339 } from './time';
import { settings } from '../settings/settings';

const AM_STATE = { scheduled: 'pending', active: 'active', expired: 'expired' } as const;

/** A silence as Alertmanager shows it: `createdBy` is the name of the principal that created it. */
export function toGettable(s: Silence): GettableSilence {
  return {
    id: s.id,
    status: { state: AM_STATE[s.state] },
    updatedAt: s.updatedAt,
    matchers: s.matchers.map(toAmMatcher),
    startsAt: s.startsAt,
    endsAt: s.endsAt,
    createdBy: s.createdBy.name,
    comment: s.comment,
  };
}

const LIST_PAGE = 100;

/** Every silence of the project that passes the filters, expired ones only within the retention. */
export async function listAlertmanagerSilences(
  scope: SilenceScope,
  filters: Matcher[],
  now = new Date(),
): Promise<GettableSilence[]> {
  const keptFrom = now.getTime() - settings().SILENCE_RETENTION_SECONDS * 1000;
  const out: GettableSilence[] = [];
  let cursor: string | undefined;
  do {
    const page = await listSilences(scope, { limit: LIST_PAGE, cursor }, now);
    for (const s of page.items)
      if (Date.parse(s.endsAt) >= keptFrom && passesFilters(s, filters)) out.push(toGettable(s));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

const isUuid = (id: string) => z.uuid().safeParse(id).success;

export async function getAlertmanagerSilence(scope: SilenceScope, id: string): Promise<GettableSilence> {
  const silence = isUuid(id) ? await getSilence(scope, id) : null;
  if (!silence) throw notFound('silence not found');
  return toGettable(silence);
}

// Issues at /v1's paths, renamed to the Alertmanager model's (`matchers.0.label` is `matchers.0.name`).
const amPath = (path: string) =>
  path.replace(/^(matchers\.\d+)\.label$/, '$1.name').replace(/^(matchers\.\d+)\.op$/, '$1');

/** A posted silence under /v1's rules (RE2, the empty-match rule, limits), its times normalised to UTC ms. */
export function silenceFields(body: PostableSilence): CreateSilenceBody {
  const issues: Issue[] = [];
  const time = (field: 'startsAt' | 'endsAt') => {
    const at = parseRfc3339(body[field]);
    if (!at) issues.push({ path: field, message: 'Use an RFC 3339 date-time, such as 2030-01-31T14:00:00Z.' });
    return at && formatInstant(at);
  };
  const [startsAt, endsAt] = [time('startsAt'), time('endsAt')];
  const candidate = {
    comment: body.comment,
    matchers: body.matchers.map(toMatcher),
    // A time that did not parse is reported above; a stand-in keeps the other rules checking the rest.
    startsAt: startsAt ?? undefined,
    endsAt: endsAt ?? formatInstant(new Date(8.64e15)),
  };
  const parsed = validateInput(createSilenceBody, candidate);
  if (parsed.success && issues.length === 0) return parsed.data;
  const timeBroken = (path: string) => (path === 'startsAt' && !startsAt) || (path === 'endsAt' && !endsAt);
  const rest = parsed.issues.filter((i) => !timeBroken(i.path)).map((i) => ({ ...i, path: amPath(i.path) }));
  throw invalidRequest([...issues, ...rest]);
}

type PostInput = {
  scope: SilenceScope;
  body: PostableSilence;
  principal: Principal;
  source: AuditSource;
  authorize: (permission: Permission, why?: string) => Promise<void>;
  now?: Date;
};

/**
 * Alertmanager's POST: no `id` creates; a known `id` updates in place where the state rules allow it
 * (scheduled: anything; active: comment and endsAt, the start sent back unchanged), else the old silence
 * is expired and a new one created in one transaction (created first, so alerts both match stay muted); an expired one is replaced by a new one. An `id`
 * not known here is 404, which is how `amtool silence import` learns to create it anew.
 */
export async function postAlertmanagerSilence(input: PostInput): Promise<string> {
  const now = input.now ?? new Date();
  const fields = silenceFields(input.body);
  const { scope, principal, authorize } = input;
  const source = { ...input.source, context: { ...input.source.context, createdBy: input.body.createdBy } };
  const create = async (tx?: Parameters<typeof createSilence>[0]['tx']) =>
    (await createSilence({ scope, body: fields, principal, source, now, tx })).id;

  const id = input.body.id;
  if (!id) {
    await authorize('obs.silences.create');
    return create();
  }
  const existing = isUuid(id) ? await getSilence(scope, id, now) : null;
  if (!existing) throw notFound('silence not found');
  if (existing.state === 'expired') {
    await authorize('obs.silences.create', 'an expired silence is replaced by a new one');
    return create();
  }
  await authorize('obs.silences.update');
  const update = (body: Partial<CreateSilenceBody>) =>
    updateSilence({ scope, silenceId: id, body, ifMatch: null, principal, source, now }).then((s) => s.id);
  if (existing.state === 'scheduled') return update(fields);

  const sameStart = fields.startsAt === undefined || fields.startsAt === existing.startsAt;
  if (sameStart && JSON.stringify(fields.matchers) === JSON.stringify(existing.matchers))
    return update({ comment: fields.comment, endsAt: fields.endsAt });
  await authorize('obs.silences.create', 'another start or other matchers replace an active silence with a new one');
  const db = await getDb();
  // The new silence first: an alert both match stays muted throughout, so no `alert.firing` is sent for it.
  return db.transaction(async (tx) => {
    const created = await create(tx);
    await expireSilence({ scope, silenceId: id, ifMatch: null, principal, source, now, tx });
    return created;
  });
}

/** Alertmanager's DELETE: expires the silence; one already expired is 200 too, and changes nothing. */
export async function expireAlertmanagerSilence(input: Omit<PostInput, 'body' | 'authorize'> & { id: string }) {
  const now = input.now ?? new Date();
  const existing = isUuid(input.id) ? await getSilence(input.scope, input.id, now) : null;
  if (!existing) throw notFound('silence not found');
  if (existing.state === 'expired') return;
  try {
    await expireSilence({ ...input, silenceId: input.id, ifMatch: null, now });
  } catch (err) {
    // Expired meanwhile by another request: the outcome Alertmanager's client asked for.
    if (!(err instanceof ApiError && err.code === 'silence_state_conflict')) throw err;
  }
}
