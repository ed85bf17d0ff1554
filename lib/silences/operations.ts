import type { ErrorCode } from '../errors';
import { ANY_CREDENTIAL, defineOperation, type Operation } from '../pipeline/operation';
import { pageOf } from '../http/pagination';
import { projectParams } from '../orgs/schema';
import {
  createSilenceBody,
  idempotencyHeaders,
  ifMatchHeaders,
  listSilencesQuery,
  silence,
  silenceCounts,
  silenceParams,
  updateSilenceBody,
} from './schema';

/** What a write naming a version (If-Match) under an Idempotency-Key can answer beyond every route's codes. */
const VERSIONED_WRITE_ERRORS: ErrorCode[] = [
  'precondition_failed',
  'silence_state_conflict',
  'idempotency_conflict',
  'idempotency_in_progress',
];

const notOffered = '404 while the project has alerting switched off.';

/** What every silence operation shares: a project's resource, for any credential, only where alerting is on. */
const silencesApi = {
  tags: ['Silences'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  requireAlerting: true,
} satisfies Partial<Operation>;

export const listSilencesOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences',
  summary: "List a project's silences",
  description: `Newest first; \`state\` filters by the state computed from the clock at the request. ${notOffered}`,
  ...silencesApi,
  params: projectParams,
  query: listSilencesQuery,
  permission: 'obs.silences.list',
  success: { status: 200, description: 'A page of silences.', schema: pageOf(silence) },
  errors: ['invalid_cursor'],
});

export const countSilencesOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences/counts',
  summary: "Count a project's silences by state",
  description: `Each state computed from one clock reading, as the list's \`state\` filter does. ${notOffered}`,
  ...silencesApi,
  params: projectParams,
  permission: 'obs.silences.list',
  success: { status: 200, description: 'How many silences are in each state.', schema: silenceCounts },
});

export const getSilenceOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
  summary: 'Get a silence',
  description: `Answers a strong \`ETag: "<version>"\` to send back in If-Match. ${notOffered}`,
  ...silencesApi,
  params: silenceParams,
  permission: 'obs.silences.get',
  success: { status: 200, description: 'The silence.', schema: silence, headers: { ETag: 'Strong, `"<version>"`.' } },
});

export const updateSilenceOp = defineOperation({
  method: 'PATCH',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
  summary: 'Change a silence',
  description: [
    'Scheduled silences accept comment, endsAt, matchers and startsAt; active ones only endsAt and comment; expired ones nothing (409 `silence_state_conflict`, one issue per refused field).',
    'A startsAt in the past starts the silence now; an endsAt in the past ends it now. `{}` changes nothing and keeps the version.',
    'If-Match not naming the current ETag: 412. Idempotency-Key: retries within 24 hours get the stored response with `Idempotent-Replayed: true`.',
    notOffered,
  ].join('\n\n'),
  ...silencesApi,
  params: silenceParams,
  headers: ifMatchHeaders,
  body: updateSilenceBody,
  permission: 'obs.silences.update',
  idempotent: true,
  success: {
    status: 200,
    description: 'The silence as changed.',
    schema: silence,
    headers: { ETag: 'The new strong ETag.' },
  },
  errors: VERSIONED_WRITE_ERRORS,
});

export const createSilenceOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences',
  summary: 'Create a silence',
  description: [
    'Every rule of the update applies to the fields (matchers, RE2, the empty-string rule, times, comment); comment, matchers and endsAt are required.',
    'A startsAt absent or in the past starts the silence now; endsAt must be after the start (an endsAt in the past is 400 at `endsAt`).',
    'Idempotency-Key: retries within 24 hours get the stored response with `Idempotent-Replayed: true`, and create nothing.',
    notOffered,
  ].join('\n\n'),
  ...silencesApi,
  params: projectParams,
  headers: idempotencyHeaders,
  body: createSilenceBody,
  permission: 'obs.silences.create',
  idempotent: true,
  success: {
    status: 201,
    description: 'The silence created.',
    schema: silence,
    headers: { ETag: 'Strong, `"<version>"`.', Location: 'The path of the new silence.' },
  },
  errors: ['idempotency_conflict', 'idempotency_in_progress'],
});

export const expireSilenceOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}',
  summary: 'Expire a silence',
  description: [
    'Ends the silence now: an active one gets `endsAt` = now, a scheduled one `startsAt` = `endsAt` = now. The silence stays listed as expired.',
    'An expired silence: 409 `silence_state_conflict`. If-Match not naming the current ETag: 412, nothing changed.',
    notOffered,
  ].join('\n\n'),
  ...silencesApi,
  params: silenceParams,
  headers: ifMatchHeaders,
  permission: 'obs.silences.update',
  idempotent: true,
  success: {
    status: 200,
    description: 'The silence, expired.',
    schema: silence,
    headers: { ETag: 'The new strong ETag.' },
  },
  errors: VERSIONED_WRITE_ERRORS,
});

export const silenceOperations = [
  listSilencesOp,
  countSilencesOp,
  createSilenceOp,
  getSilenceOp,
  updateSilenceOp,
  expireSilenceOp,
];
