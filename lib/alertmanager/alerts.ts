import { unresolvedAlerts, type AlertRow } from '../alerts/list-service';
import type { AlertScope } from '../alerts/service';
import { labelSetTest } from '../silences/matchers';
import type { AlertQuery } from './alert-query';
import type { AlertGroup, GettableAlert } from './model';

/** The one receiver every alert of a project routes to. */
export const RECEIVER = 'project';

export function toGettableAlert(row: AlertRow): GettableAlert {
  return {
    labels: row.labels,
    annotations: row.annotations,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.generatorUrl ? { generatorURL: row.generatorUrl } : {}),
    fingerprint: row.fingerprint,
    receivers: [{ name: RECEIVER }],
    status: {
      state: row.silencedBy.length > 0 ? 'suppressed' : 'active',
      silencedBy: row.silencedBy,
      inhibitedBy: [],
    },
  };
}

/** The unresolved alerts the query keeps (Alertmanager's alertFilter), by fingerprint, with their state now. */
export async function queryAlerts(scope: AlertScope, query: AlertQuery, now = new Date()): Promise<GettableAlert[]> {
  if (query.receiver && !query.receiver.matches(RECEIVER)) return [];
  const passes = labelSetTest(query.filters);
  const rows = await unresolvedAlerts(scope, now);
  return rows
    .filter((row) => {
      const silenced = row.silencedBy.length > 0;
      if (!query.active && !silenced) return false;
      if (!query.silenced && silenced) return false;
      return passes(row.labels);
    })
    .map(toGettableAlert);
}

// Alertmanager's order within a group (types.AlertSlice): by `job`, then `instance`, then the whole label set.
const OVERRIDES = ['job', 'instance'];

function compareLabels(a: Record<string, string>, b: Record<string, string>): number {
  for (const key of OVERRIDES) {
    const [x, y] = [a[key], b[key]];
    if (x === undefined && y === undefined) continue;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    if (x !== y) return x < y ? -1 : 1;
  }
  const [ka, kb] = [Object.keys(a).sort(), Object.keys(b).sort()];
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    if (a[ka[i]] !== b[kb[i]]) return a[ka[i]] < b[kb[i]] ? -1 : 1;
  }
  return ka.length - kb.length;
}

/** One group, labels `{}`, for the one receiver: omitted when the query keeps no alert. */
export async function queryAlertGroups(scope: AlertScope, query: AlertQuery, now = new Date()): Promise<AlertGroup[]> {
  const alerts = await queryAlerts(scope, query, now);
  if (alerts.length === 0) return [];
  alerts.sort((a, b) => compareLabels(a.labels, b.labels));
  return [{ labels: {}, receiver: { name: RECEIVER }, alerts }];
}
