import { z } from 'zod';
import { atMostCharacters } from '../characters';
import { resourceIdParam, shortIdPattern } from '../short-ids';
import { pageQuery, searchQuery } from '../http/pagination';
import { matchersSchema, matcherSchema } from './matchers';
import { parseIfMatch } from '../http/etag';
import { parseUtcInstant, utcTimestamp } from './time';

export const SILENCE_STATES = ['scheduled', 'active', 'expired'] as const;
export type SilenceState = (typeof SILENCE_STATES)[number];

/** The fields the update accepts in each state (the spec's state table). */
export const FIELDS_BY_STATE: Record<SilenceState, readonly SilenceField[]> = {
  scheduled: ['comment', 'endsAt', 'matchers', 'startsAt'],
  active: ['endsAt', 'comment'],
  expired: [],
};
export type SilenceField = 'comment' | 'endsAt' | 'matchers' | 'startsAt';

export const silenceParams = z.object({ orgId: z.uuid(), projectId: z.uuid(), silenceId: resourceIdParam('silence') });

export const listSilencesQuery = pageQuery.extend({
  state: z.enum(SILENCE_STATES).optional(),
  q: searchQuery('Silences whose comment, or a matcher’s label or value, contains this text (any case).'),
});

export const commentSchema = atMostCharacters(z.string().min(1, 'Enter a comment.'), 1000, 'At most 1000 characters.');

/** Both times given: the end must come after the start (the create and the update share this rule). */
function endsAfterStarts(body: { startsAt?: unknown; endsAt?: unknown }, ctx: z.RefinementCtx): void {
  if (typeof body.startsAt !== 'string' || typeof body.endsAt !== 'string') return;
  const starts = parseUtcInstant(body.startsAt);
  const ends = parseUtcInstant(body.endsAt);
  if (starts && ends && ends <= starts)
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start.' });
}
const whenObject = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

/** The PATCH body: shared by the route and the console's edit form. */
export const updateSilenceBody = z
  .strictObject({
    comment: commentSchema.optional(),
    endsAt: utcTimestamp.optional(),
    startsAt: utcTimestamp.optional(),
    matchers: matchersSchema.optional(),
  })
  .superRefine(endsAfterStarts, whenObject);
export type UpdateSilenceBody = z.output<typeof updateSilenceBody>;

const updateFields = updateSilenceBody.shape;
/** The POST body: the update's own field schemas, with comment, endsAt and matchers required. */
export const createSilenceBody = z
  .strictObject({
    ...updateFields,
    comment: updateFields.comment.unwrap(),
    endsAt: updateFields.endsAt.unwrap(),
    matchers: updateFields.matchers.unwrap(),
  })
  .superRefine(endsAfterStarts, whenObject);
export type CreateSilenceBody = z.output<typeof createSilenceBody>;

/** A draft silence to preview: its matchers and times under the create's rules; the comment is not needed yet. */
export const previewSilenceBody = z
  .strictObject({
    matchers: updateFields.matchers.unwrap(),
    startsAt: updateFields.startsAt,
    endsAt: updateFields.endsAt,
  })
  .superRefine(endsAfterStarts, whenObject);
export type PreviewSilenceBody = z.output<typeof previewSilenceBody>;

const principalRef = z.object({
  id: z.string(),
  type: z.enum(['user', 'bot']),
  name: z.string().meta({ description: 'Shown to anyone who can see the silence.' }),
});

export const silence = z
  .object({
    id: z.uuid(),
    projectId: z.uuid(),
    resourceName: z.string().meta({ example: 'organizations/{orgId}/projects/{projectId}/silences/{id}' }),
    slug: z.string().regex(shortIdPattern('sil')),
    comment: z.string(),
    matchers: z.array(matcherSchema),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    state: z.enum(SILENCE_STATES),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    createdBy: principalRef,
    updatedBy: principalRef,
    version: z.int().min(1),
    mutedAlerts: z.int().min(0).meta({
      description: 'How many unresolved alerts it mutes now: 0 unless active; kept as alerts and silences change.',
    }),
  })
  .meta({ id: 'Silence' });
export type Silence = z.infer<typeof silence>;

export const silenceCounts = z
  .object({ scheduled: z.int().min(0), active: z.int().min(0), expired: z.int().min(0) })
  .meta({ id: 'SilenceCounts' });
export type SilenceCounts = z.infer<typeof silenceCounts>;

const idempotencyKeyHeader = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'The Idempotency-Key is 1 to 200 printable ASCII characters (0x21 to 0x7e).')
  .optional();

/** The create's header: no If-Match, as there is nothing yet to match. */
export const idempotencyHeaders = z.object({ 'Idempotency-Key': idempotencyKeyHeader });

export const ifMatchHeaders = z.object({
  'If-Match': z
    .string()
    .refine(
      (header) => parseIfMatch(header) !== null,
      'If-Match is `*` or a comma-separated list of quoted ETags, such as "3".',
    )
    .optional()
    .meta({ description: '`*`, or a comma-separated list of strong ETags from a GET; weak tags never match.' }),
  'Idempotency-Key': idempotencyKeyHeader,
});

export function silenceState(s: { startsAt: Date; endsAt: Date }, now: Date): SilenceState {
  if (now < s.startsAt) return 'scheduled';
  if (now < s.endsAt) return 'active';
  return 'expired';
}
