import { fingerprintOf } from '../alerts/fingerprint';
import type { ReceivedAlert } from '../alerts/schema';
import type { AlertRefusal } from '../alerts/service';
import { LABEL_PATTERN } from '../silences/matchers';
import { parseRfc3339 } from './time';

/** Alertmanager's resolve timeout (its global `resolve_timeout` default): an alert sent without an end lasts this. */
export const RESOLVE_TIMEOUT_MS = 5 * 60_000;
/** The zero Go time amtool sends for a time not given: treated as absent, as Alertmanager does. */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** What the body of `POST /alerts` comes to, as Alertmanager 0.25 answers each layer. */
export type AlertsBody =
  /** Not decodable (not JSON, not an array, a value of the wrong type): 400 `{code: 400, message}`. */
  | { kind: 'undecodable'; message: string }
  /** Against the schema (no labels, a bad date-time or URI): 422 `{code: 602, message}`, nothing stored. */
  | { kind: 'schema'; message: string }
  /** Each alert valid or refused on its own: the valid ones are stored, the refused named in a 400. */
  | { kind: 'alerts'; alerts: ReceivedAlert[]; refused: AlertRefusal[] };

const undecodable = (because: string): AlertsBody => ({
  kind: 'undecodable',
  message: `parsing alerts body from "" failed, because ${because}`,
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object of strings (a null value reads as "", as Go decodes it), or the decoding problem. */
function stringMap(value: unknown, where: string): Record<string, string> | string {
  if (value === null || value === undefined) return {};
  if (!isObject(value)) return `json: cannot unmarshal ${jsonType(value)} into Go struct field ${where} of type map`;
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (v !== null && typeof v !== 'string')
      return `json: cannot unmarshal ${jsonType(v)} into Go struct field ${where} of type string`;
    out[name] = v ?? '';
  }
  return out;
}

const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

/** strfmt `uri`: Go's url.ParseRequestURI, an absolute URI or an absolute path. */
function isRequestUri(text: string): boolean {
  if (/[\s\x00-\x1f\x7f]/.test(text)) return false;
  if (text.startsWith('/')) return true;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) return false;
  return URL.canParse(text);
}

/** Labels as Alertmanager prints a label set in its errors: `{a="b", c="d"}`, sorted. */
export const labelsText = (labels: Record<string, string>) =>
  `{${Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(', ')}}`;

/** Bytes an alert holds, as Mimir counts them: label and annotation names and values, and the generator URL. */
export function alertSize(a: Pick<ReceivedAlert, 'labels' | 'annotations' | 'generatorUrl'>): number {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  const pairs = (m: Record<string, string>) => Object.entries(m).reduce((n, [k, v]) => n + bytes(k) + bytes(v), 0);
  return pairs(a.labels) + pairs(a.annotations) + bytes(a.generatorUrl);
}

type Decoded = {
  /** Null when the alert has no `labels`: the schema's complaint, not the decoder's. */
  labels: Record<string, string> | null;
  annotations: Record<string, string>;
  startsAt: string | null;
  endsAt: string | null;
  generatorUrl: string;
};

function decode(items: unknown[]): Decoded[] | string {
  const out: Decoded[] = [];
  for (const item of items) {
    if (!isObject(item)) return `json: cannot unmarshal ${jsonType(item)} into Go value of type models.PostableAlert`;
    const labels = stringMap(item.labels, 'labels');
    if (typeof labels === 'string') return labels;
    const annotations = stringMap(item.annotations, 'annotations');
    if (typeof annotations === 'string') return annotations;
    for (const field of ['startsAt', 'endsAt', 'generatorURL'])
      if (item[field] !== undefined && item[field] !== null && typeof item[field] !== 'string')
        return `json: cannot unmarshal ${jsonType(item[field])} into Go struct field ${field} of type string`;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    out.push({
      labels: item.labels === undefined || item.labels === null ? null : labels,
      annotations,
      startsAt: text(item.startsAt),
      endsAt: text(item.endsAt),
      generatorUrl: text(item.generatorURL) ?? '',
    });
  }
  return out;
}

/** The schema's first complaint, prefixed with the alert's index, as go-openapi words it. */
function schemaProblem(alerts: Decoded[]): string | null {
  for (const [i, a] of alerts.entries()) {
    if (a.labels === null) return `${i}.labels in body is required`;
    if (a.generatorUrl !== '' && !isRequestUri(a.generatorUrl))
      return `${i}.generatorURL in body must be of type uri: ${JSON.stringify(a.generatorUrl)}`;
    for (const field of ['startsAt', 'endsAt'] as const) {
      const value = a[field];
      if (value !== null && !parseRfc3339(value))
        return `${i}.${field} in body must be of type date-time: ${JSON.stringify(value)}`;
    }
  }
  return null;
}

/** A time sent, or null when absent or the zero time amtool sends for "not given". */
function given(text: string | null): Date | null {
  const at = text === null ? null : parseRfc3339(text);
  return at && at.getTime() !== GO_ZERO_TIME ? at : null;
}

/** Alertmanager's own checks of one alert (prometheus/common `Alert.Validate`), in its order; null when valid. */
function alertProblem(a: Pick<ReceivedAlert, 'labels' | 'annotations' | 'startsAt' | 'endsAt'>): string | null {
  if (a.endsAt < a.startsAt) return 'start time must be before end time';
  const badName = Object.keys(a.labels).find((name) => !LABEL_PATTERN.test(name));
  if (badName !== undefined) return `invalid label set: invalid name ${JSON.stringify(badName)}`;
  if (Object.keys(a.labels).length === 0) return 'at least one label pair required';
  const badAnnotation = Object.keys(a.annotations).find((name) => !LABEL_PATTERN.test(name));
  if (badAnnotation !== undefined) return `invalid annotations: invalid name ${JSON.stringify(badAnnotation)}`;
  return null;
}

/**
 * The body of `POST /alerts` as Alertmanager 0.25 reads it: decode, then the schema (the whole batch), then each
 * alert on its own after dropping empty label values and filling the times it was not sent (no end: now + the
 * resolve timeout; no start: now, or the end when only that was sent).
 */
export function parseAlertsBody(text: string, now: Date): AlertsBody {
  if (text.trim() === '' || text.trim() === 'null') return { kind: 'schema', message: 'alerts in body is required' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return undecodable(err instanceof Error ? err.message : 'the body is not JSON');
  }
  if (!Array.isArray(value))
    return undecodable(`json: cannot unmarshal ${jsonType(value)} into Go value of type models.PostableAlerts`);
  const decoded = decode(value);
  if (typeof decoded === 'string') return undecodable(decoded);
  const problem = schemaProblem(decoded);
  if (problem) return { kind: 'schema', message: problem };

  const alerts: ReceivedAlert[] = [];
  const refused: AlertRefusal[] = [];
  for (const [index, a] of decoded.entries()) {
    const labels = Object.fromEntries(Object.entries(a.labels ?? {}).filter(([, v]) => v !== ''));
    const sentEnd = given(a.endsAt);
    const endsAt = sentEnd ?? new Date(now.getTime() + RESOLVE_TIMEOUT_MS);
    const startsAt = given(a.startsAt) ?? sentEnd ?? now;
    const alert = { labels, annotations: a.annotations, generatorUrl: a.generatorUrl, startsAt, endsAt };
    const reason = alertProblem(alert);
    if (reason) refused.push({ index, labels, reason });
    else
      alerts.push({
        ...alert,
        endsByTimeout: sentEnd === null,
        fingerprint: fingerprintOf(labels),
        sizeBytes: alertSize(alert),
        index,
      });
  }
  return { kind: 'alerts', alerts, refused };
}
