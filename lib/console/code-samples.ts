import type { Permission } from '../permissions';

/**
 * One `/v1` act as the registry declares it (server/console/code-acts.ts reads the operation): its method, its path
 * template and what a key needs for it. The console's "Use from code" panels build their requests from these.
 */
export type CodeAct = { method: string; path: string; permissions: Permission[] };

/** The variable every request copied from the console reads its key from: no secret on screen. */
export const API_KEY_VARIABLE = 'SVC_API_KEY';

/** The act's path with its `{name}` parameters filled in; a parameter not given stays as it is, to be seen. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(values[name]),
  );
}

/** One shell word, single-quoted when it needs to be (a `'` inside becomes `'\''`). */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** `Authorization: Bearer …`: the key itself where it is shown anyway (a new key), else `$SVC_API_KEY`. */
const authorization = (key: string | null) =>
  key === null ? `"Authorization: Bearer $${API_KEY_VARIABLE}"` : shellWord(`Authorization: Bearer ${key}`);

/** A curl command, one option a line: what a person pastes into a shell and reads before running it. */
export function curlLine({
  method,
  url,
  key = null,
  headers = [],
  body,
}: {
  method: string;
  url: string;
  key?: string | null;
  headers?: string[];
  body?: string;
}): string {
  const parts = [method === 'GET' ? `curl ${shellWord(url)}` : `curl -X ${method} ${shellWord(url)}`];
  parts.push(`-H ${authorization(key)}`, ...headers.map((h) => `-H ${shellWord(h)}`));
  if (body !== undefined) parts.push(`-d ${shellWord(body)}`);
  return parts.join(' \\\n  ');
}

/** Compact JSON for a request body, as one shell word. */
export const jsonText = (value: unknown) => JSON.stringify(value);

/** Where a project's Alertmanager API is, as Prometheus, amtool and Grafana are given it (docs/alertmanager.md). */
export type AlertmanagerTarget = { origin: string; orgId: string; projectId: string };

/** The path prefix of the project's Alertmanager API: Prometheus posts to it + /api/v2/alerts. */
export const alertmanagerPath = ({ orgId, projectId }: AlertmanagerTarget) => `/alertmanager/${orgId}/${projectId}`;

/** The base URL amtool's `--alertmanager.url` and Grafana's data source take. */
export const alertmanagerUrl = (target: AlertmanagerTarget) => `${target.origin}${alertmanagerPath(target)}`;

/**
 * `amtool --alertmanager.url=…` with the key as Basic auth's password (any user name), which the Alertmanager API
 * takes: from `$SVC_API_KEY`, so the command holds no secret.
 */
export function amtoolUrlOption(target: AlertmanagerTarget): string {
  const withKey = target.origin.replace('://', `://amtool:$${API_KEY_VARIABLE}@`);
  return `--alertmanager.url="${withKey}${alertmanagerPath(target)}"`;
}
