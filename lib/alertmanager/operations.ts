import { z } from 'zod';
import { defineOperation, type CredentialKind } from '../pipeline/operation';
import { projectParams } from '../orgs/schema';
import {
  alertGroup,
  amStatus,
  gettableAlert,
  gettableSilence,
  postableAlert,
  postableSilence,
  postSilenceAnswer,
} from './model';
import type { AmOperation } from './route';

/** No cookie: a browser's session can never act here, so this family has no CSRF surface. */
const BEARER_ONLY = ['api_key', 'oauth'] as const satisfies readonly CredentialKind[];

const BASE = '/alertmanager/{orgId}/{projectId}/api/v2';
const NOT_OFFERED = 'A project whose alerting is off, or one the caller cannot see: 404.';

/** What every operation of the family shares: a project, alerting on, bearer or Basic credentials only. */
const family = {
  tags: ['Alertmanager'],
  scope: 'project' as const,
  credentials: BEARER_ONLY,
  params: projectParams,
  requireAlerting: true,
};

const silenceParams = projectParams.extend({ silenceID: z.uuid() });

export const amStatusOp = defineOperation({
  ...family,
  method: 'GET',
  path: `${BASE}/status`,
  summary: 'Alertmanager status',
  description: `A single, unclustered Alertmanager 0.25 whose configuration routes everything to the receiver \`null\`; amtool and Grafana parse it. ${NOT_OFFERED}`,
  permission: 'obs.silences.list',
  success: { status: 200, description: 'The status.', schema: amStatus },
});

export const amListSilencesOp = defineOperation({
  ...family,
  method: 'GET',
  path: `${BASE}/silences`,
  summary: 'Alertmanager list of silences',
  description: `Every state, expired too until \`SILENCE_RETENTION_SECONDS\` after its end. Each \`filter\` (\`name="value"\`, \`name=~"re"\`, …) keeps the silences having a matcher with the same name, operator and value; other parameters are ignored. ${NOT_OFFERED}`,
  query: z.object({
    filter: z.array(z.string()).optional().meta({ description: 'A matcher, such as `alertname="Disk"`.' }),
  }),
  permission: 'obs.silences.list',
  success: { status: 200, description: 'The silences.', schema: z.array(gettableSilence) },
});

export const amPostSilenceOp = defineOperation({
  ...family,
  method: 'POST',
  path: `${BASE}/silences`,
  summary: 'Alertmanager create or update a silence',
  description: [
    'Without `id`: creates (`obs.silences.create`). With a known `id`: updates it in place where the state allows (`obs.silences.update`), else expires it and creates a new one in one transaction (both permissions); an expired one is replaced by a new silence.',
    'An `id` this project does not know: 404, so `amtool silence import` creates it anew. The author is the caller; the `createdBy` sent is kept in the audit event only.',
    NOT_OFFERED,
  ].join('\n\n'),
  body: postableSilence,
  anyPermission: ['obs.silences.create', 'obs.silences.update'],
  success: { status: 200, description: 'The id of the silence written.', schema: postSilenceAnswer },
});

export const amGetSilenceOp = defineOperation({
  ...family,
  method: 'GET',
  path: `${BASE}/silence/{silenceID}`,
  summary: 'Alertmanager get a silence',
  description: `Its \`id\` is its /v1 \`id\`. ${NOT_OFFERED}`,
  params: silenceParams,
  permission: 'obs.silences.get',
  success: { status: 200, description: 'The silence.', schema: gettableSilence },
});

export const amDeleteSilenceOp = defineOperation({
  ...family,
  method: 'DELETE',
  path: `${BASE}/silence/{silenceID}`,
  summary: 'Alertmanager expire a silence',
  description: `Ends it now, with the same audit event as /v1; one already expired answers 200 too and changes nothing. ${NOT_OFFERED}`,
  params: silenceParams,
  permission: 'obs.silences.update',
  success: { status: 200, description: 'Expired.' },
});

const flag = (description: string) =>
  z
    .string()
    .optional()
    .meta({ description: `${description} Default true; \`false\`, \`0\`, \`no\`… are false.` });

/** The query of both alert lists, as Alertmanager 0.25 takes it. */
const alertQuery = z.object({
  filter: z.array(z.string()).optional().meta({
    description: 'Repeatable, all must match, with silence semantics: `severity="critical"`, `job=~"api.*"`.',
  }),
  active: flag('Lists alerts no silence mutes.'),
  silenced: flag('Lists alerts an active silence mutes.'),
  inhibited: flag('Lists inhibited alerts (there are none here).'),
  receiver: z.string().optional().meta({ description: 'A regex the receiver (`project`) must match whole.' }),
});

export const amPostAlertsOp = defineOperation({
  ...family,
  method: 'POST',
  path: `${BASE}/alerts`,
  summary: 'Alertmanager receive alerts',
  description: [
    "What Prometheus's `alerting.alertmanagers` posts, answered as Alertmanager 0.25 does: `[]` 200; a body that is not a JSON array of alerts 400 `{code: 400, message}`; a schema failure (no `labels`, a bad date-time or URI) 422 `{code: 602, message}`, nothing stored.",
    'Each alert on its own: a label name outside `[a-zA-Z_][a-zA-Z0-9_]*`, `endsAt` before `startsAt`, no label left once empty values are dropped, over 16 KiB, or beyond `ALERTS_MAX_PER_PROJECT` unresolved alerts: the others are stored, then 400 with a JSON string naming each refused alert.',
    'A repeated alert (same labels, so same fingerprint) updates the stored one. No `endsAt`: now + 5 minutes; no `startsAt`: now, or the `endsAt`.',
    NOT_OFFERED,
  ].join('\n\n'),
  body: z.array(postableAlert),
  rawBody: true,
  maxBodyBytes: 8 * 1024 * 1024,
  permission: 'obs.alerts.create',
  success: { status: 200, description: 'Every alert stored.' },
});

export const amAlertsOp = defineOperation({
  ...family,
  method: 'GET',
  path: `${BASE}/alerts`,
  summary: 'Alertmanager list of alerts',
  description: `The unresolved alerts, by fingerprint, each with the active silences that mute it now. \`unprocessed\` is read and ignored, as Alertmanager does. ${NOT_OFFERED}`,
  query: alertQuery.extend({ unprocessed: flag('Ignored.') }),
  permission: 'obs.alerts.list',
  success: { status: 200, description: 'The alerts.', schema: z.array(gettableAlert) },
});

export const amAlertGroupsOp = defineOperation({
  ...family,
  method: 'GET',
  path: `${BASE}/alerts/groups`,
  summary: 'Alertmanager list of alert groups',
  description: `One group (labels \`{}\`, receiver \`project\`) holding the alerts \`GET /alerts\` would list; none when it would list none. ${NOT_OFFERED}`,
  query: alertQuery,
  permission: 'obs.alerts.list',
  success: { status: 200, description: 'The groups.', schema: z.array(alertGroup) },
});

export const amReceiversOp = defineOperation({
  ...family,
  method: 'GET',
  path: `${BASE}/receivers`,
  summary: 'Alertmanager list of receivers',
  description: `The one receiver, \`project\`, that every alert of the project routes to (its webhooks hear the alerts' transitions). ${NOT_OFFERED}`,
  permission: 'obs.silences.list',
  success: { status: 200, description: 'The receivers.', schema: z.array(z.object({ name: z.literal('project') })) },
});

export const alertmanagerOperations: AmOperation[] = [
  amStatusOp,
  amListSilencesOp,
  amPostSilenceOp,
  amGetSilenceOp,
  amDeleteSilenceOp,
  amPostAlertsOp,
  amAlertsOp,
  amAlertGroupsOp,
  amReceiversOp,
];
