import { ANY_CREDENTIAL, defineOperation, type Operation } from '../pipeline/operation';
import { pageOf } from '../http/pagination';
import { projectParams } from '../orgs/schema';
import { previewSilenceBody } from '../silences/schema';
import { alert, alertParams, alertRefusals, listAlertsQuery, previewAnswer } from './schema';

const notOffered = '404 while the project has alerting switched off.';

/** A project's alerts, for any credential, only where alerting is on (as its silences). */
const alertsApi = {
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  requireAlerting: true,
} satisfies Partial<Operation>;

export const listAlertsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/alerts',
  summary: "List a project's alerts",
  description: [
    'Newest first (by `startsAt`), in keyset pages. `state` as of the request: `firing` (unresolved, no active silence mutes it), `silenced` (an active silence mutes it: `silencedBy`), `resolved` (its `endsAt` passed; kept `ALERT_RETENTION_SECONDS`).',
    'Each `filter` is a matcher with silence semantics (RE2 anchored to the whole value, an absent label matching as `""`); all must match.',
    notOffered,
  ].join('\n\n'),
  tags: ['Alerts'],
  ...alertsApi,
  params: projectParams,
  query: listAlertsQuery,
  permission: 'obs.alerts.list',
  success: { status: 200, description: 'A page of alerts.', schema: pageOf(alert) },
  errors: ['invalid_cursor'],
});

export const getAlertOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/alerts/{fingerprint}',
  summary: 'Get an alert',
  description: `By its fingerprint (16 hex digits, Alertmanager's). A resolved alert is found until \`ALERT_RETENTION_SECONDS\` after its end. ${notOffered}`,
  tags: ['Alerts'],
  ...alertsApi,
  params: alertParams,
  permission: 'obs.alerts.list',
  success: { status: 200, description: 'The alert.', schema: alert },
});

export const listAlertRefusalsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/alerts/refusals',
  summary: "A project's alert posts: the last one, and the refused alerts",
  description: [
    '`lastPostAt`: when the Alertmanager API last received a post of alerts from any sender (what says a sender is connected). Then the alerts it refused (over 16 KiB, beyond `ALERTS_MAX_PER_PROJECT` unresolved, or invalid) within `ALERT_RETENTION_SECONDS`: how many, in how many posts, and the latest five posts with their first reason. The sender got each refusal in its 400.',
    notOffered,
  ].join('\n\n'),
  tags: ['Alerts'],
  ...alertsApi,
  params: projectParams,
  permission: 'obs.alerts.list',
  success: { status: 200, description: 'The last post and the refusals.', schema: alertRefusals },
});

export const previewSilenceOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/projects/{projectId}/obs/silences/preview',
  summary: 'Preview the alerts a silence would mute',
  description: [
    'The matchers and times are checked as for a new silence (RE2, the empty-string rule, endsAt after startsAt); nothing is stored.',
    'Answers the unresolved alerts the matchers match now, with silence semantics: how many, and the first 100.',
    notOffered,
  ].join('\n\n'),
  tags: ['Silences'],
  ...alertsApi,
  params: projectParams,
  body: previewSilenceBody,
  permission: 'obs.silences.list',
  success: { status: 200, description: 'What it would mute.', schema: previewAnswer },
});

export const alertOperations = [listAlertsOp, listAlertRefusalsOp, getAlertOp, previewSilenceOp];
