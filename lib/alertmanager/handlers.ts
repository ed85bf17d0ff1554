import { invalidRequest, type Issue } from '../errors';
import type { Matcher } from '../silences/matchers';
import { parseFilter } from './matchers';
import type { PostableSilence } from './model';
import {
  amAlertGroupsOp,
  amAlertsOp,
  amPostAlertsOp,
  amDeleteSilenceOp,
  amGetSilenceOp,
  amListSilencesOp,
  amPostSilenceOp,
  amReceiversOp,
  amStatusOp,
} from './operations';
import { amJson, type AmHandler, type AmOperation } from './route';
import {
  expireAlertmanagerSilence,
  getAlertmanagerSilence,
  listAlertmanagerSilences,
  postAlertmanagerSilence,
} from './service';
import { alertmanagerStatus } from './status';
import { parseAlertQuery } from './alert-query';
import { queryAlertGroups, queryAlerts, RECEIVER } from './alerts';
import { postAlerts } from './receive';

/** Every `filter` parameter as a matcher; the first that is not one is 400, as Alertmanager answers. */
function filtersOf(search: URLSearchParams): Matcher[] {
  const issues: Issue[] = [];
  const filters = search.getAll('filter').flatMap((text) => {
    const matcher = parseFilter(text);
    if (!matcher) issues.push({ path: 'filter', message: `bad matcher format: ${text}` });
    return matcher ? [matcher] : [];
  });
  if (issues.length > 0) throw invalidRequest(issues);
  return filters;
}

/** Each operation's handler: parse, call the service, answer in Alertmanager's shapes. */
export const ALERTMANAGER_HANDLERS = new Map<AmOperation, AmHandler>([
  [amStatusOp, async () => amJson(alertmanagerStatus())],
  [
    amListSilencesOp,
    async ({ req, scope }) => amJson(await listAlertmanagerSilences(scope, filtersOf(req.nextUrl.searchParams))),
  ],
  [
    amPostSilenceOp,
    async ({ scope, body, principal, audit, authorize }) =>
      amJson({
        silenceID: await postAlertmanagerSilence({
          scope,
          body: body as PostableSilence,
          principal,
          source: audit,
          authorize,
        }),
      }),
  ],
  [amGetSilenceOp, async ({ scope, params }) => amJson(await getAlertmanagerSilence(scope, params.silenceID))],
  [
    amDeleteSilenceOp,
    async ({ scope, params, principal, audit }) => {
      await expireAlertmanagerSilence({ scope, id: params.silenceID, principal, source: audit });
      return amJson(null);
    },
  ],
  [amPostAlertsOp, async ({ scope, bodyText }) => postAlerts(scope, bodyText)],
  [amAlertsOp, async ({ req, scope }) => amJson(await queryAlerts(scope, parseAlertQuery(req.nextUrl.searchParams)))],
  [
    amAlertGroupsOp,
    async ({ req, scope }) => amJson(await queryAlertGroups(scope, parseAlertQuery(req.nextUrl.searchParams))),
  ],
  [amReceiversOp, async () => amJson([{ name: RECEIVER }])],
]);
