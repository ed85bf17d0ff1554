import { z } from 'zod';
import { defineOperation, type CredentialKind } from '../pipeline/operation';
import { projectParams } from '../orgs/schema';
import { amStatus, gettableSilence, postableSilence, postSilenceAnswer } from './model';
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

const alwaysEmpty = (what: string) =>
  z
    .array(z.looseObject({}))
    .max(0)
    .meta({ description: `Always empty: this project keeps no ${what}.` });

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

const emptyList = (path: string, what: string, summary: string) =>
  defineOperation({
    ...family,
    method: 'GET',
    path: `${BASE}/${path}`,
    summary,
    description: `So that Alertmanager clients' pages render: this project sends no alerts through here. ${NOT_OFFERED}`,
    permission: 'obs.silences.list',
    success: { status: 200, description: 'An empty list.', schema: alwaysEmpty(what) },
  });

export const amAlertsOp = emptyList('alerts', 'alerts', 'Alertmanager list of alerts');
export const amAlertGroupsOp = emptyList('alerts/groups', 'alert groups', 'Alertmanager list of alert groups');
export const amReceiversOp = emptyList('receivers', 'receivers', 'Alertmanager list of receivers');

export const alertmanagerOperations: AmOperation[] = [
  amStatusOp,
  amListSilencesOp,
  amPostSilenceOp,
  amGetSilenceOp,
  amDeleteSilenceOp,
  amAlertsOp,
  amAlertGroupsOp,
  amReceiversOp,
];
