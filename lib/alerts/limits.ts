import { positiveInteger } from '../settings';

/** Unresolved alerts a project keeps at most unless ALERTS_MAX_PER_PROJECT says otherwise. */
export const DEFAULT_MAX_ALERTS = 10_000;
/** Bytes an alert holds at most: label and annotation names and values and its generator URL. */
export const MAX_ALERT_BYTES = 16 * 1024;
/** How long a resolved alert stays listed (`state=resolved`) unless ALERT_RETENTION_SECONDS says otherwise. */
export const DEFAULT_ALERT_RETENTION_SECONDS = 86_400;

export const maxAlertsPerProject = (value = process.env.ALERTS_MAX_PER_PROJECT) =>
  positiveInteger(value, DEFAULT_MAX_ALERTS);

export const alertRetentionSeconds = (value = process.env.ALERT_RETENTION_SECONDS) =>
  positiveInteger(value, DEFAULT_ALERT_RETENTION_SECONDS);
