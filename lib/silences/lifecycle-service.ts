import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import type { Principal } from '../auth/principal';
import { projectResourceEvent } from '../audit/project-event';
import { recordAuditEvent } from '../audit/record';
import type { AuditChange, AuditSource } from '../db/audit-types';
import { ApiError, invalidRequest } from '../errors';
import { newSlug } from '../slug';
import { silenceState, type CreateSilenceBody, type Silence } from './schema';
import { lockMatchingSilence, silenceColumns, toSilence, writeNextVersion, type SilenceScope } from './service';
import { formatInstant, parseUtcInstant } from './time';
import { relinkSilence } from './muting-service';

/** What every silence write is told: where, by whom, from where, at what clock reading. */
type SilenceWrite = {
  scope: SilenceScope;
  principal: Pick<Principal, 'type' | 'id'>;
  source: AuditSource;
  now?: Date;
  /** A caller's transaction to join (the Alertmanager API replaces a silence in one). */
  tx?: Tx;
};

/** Runs `work` in the caller's transaction when there is one, else in a new one. */
async function inTransaction<T>(tx: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
  return tx ? work(tx) : (await getDb()).transaction(work);
}

/**
 * Creates a silence and its `silence.created` event in one transaction. A startsAt absent or in the past
 * starts it now; an endsAt in the past is now, which is then not after the start (400 at endsAt).
 */
export async function createSilence(input: SilenceWrite & { body: CreateSilenceBody }): Promise<Silence> {
  const now = input.now ?? new Date();
  const notBeforeNow = (text: string | undefined) => {
    const at = text === undefined ? null : parseUtcInstant(text);
    return at && at > now ? at : now;
  };
  const startsAt = notBeforeNow(input.body.startsAt);
  const endsAt = notBeforeNow(input.body.endsAt);
  if (endsAt <= startsAt)
    throw invalidRequest([
      { path: 'endsAt', message: `The end must be after the start (${formatInstant(startsAt)}).` },
    ]);

  const by = { type: input.principal.type, id: input.principal.id };
  return inTransaction(input.tx, async (tx) => {
    const [row] = await tx
      .insert(t.silences)
      .values({
        organizationId: input.scope.organizationId,
        projectId: input.scope.projectId,
        slug: newSlug('sil'),
        comment: input.body.comment,
        matchers: input.body.matchers,
        startsAt,
        endsAt,
        createdByType: by.type,
        createdById: by.id,
        updatedByType: by.type,
        updatedById: by.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning(silenceColumns);
    row.matchedAlerts = await relinkSilence(tx, input.scope, row, now, true);
    const silence = toSilence(row, now);
    const fields = ['comment', 'matchers', 'startsAt', 'endsAt'] as const;
    const changes = fields.map((field) => ({ field, from: null, to: silence[field] }));
    await recordAuditEvent(tx, projectResourceEvent(input.source, 'silence.created', row, changes), now);
    return silence;
  });
}

/**
 * Ends a silence now, with its `silence.expired` event, in one transaction: an active one gets
 * `endsAt = now`, a scheduled one `startsAt = endsAt = now`; an expired one is 409. Order: 404 → 412 → 409.
 */
export async function expireSilence(
  input: SilenceWrite & { silenceId: string; ifMatch: string | null },
): Promise<Silence> {
  const now = input.now ?? new Date();
  return inTransaction(input.tx, async (tx) => {
    const row = await lockMatchingSilence(tx, input);
    const state = silenceState(row, now);
    if (state === 'expired')
      throw new ApiError(
        'silence_state_conflict',
        `This silence already expired at ${formatInstant(row.endsAt)}; there is nothing to end.`,
      );

    const window = state === 'scheduled' ? { startsAt: now, endsAt: now } : { endsAt: now };
    const changes: AuditChange[] = Object.entries(window).map(([field, to]) => ({
      field,
      from: formatInstant(row[field as keyof typeof window]),
      to: formatInstant(to),
    }));
    const updated = await writeNextVersion(tx, row, window, input.principal, now);
    await recordAuditEvent(tx, projectResourceEvent(input.source, 'silence.expired', row, changes), now);
    return toSilence(updated, now);
  });
}
