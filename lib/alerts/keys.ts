// The console's alert hooks (lib/alerts/queries.ts) and what refreshes them after a silence changes use these.
import type { AlertState } from './schema';

/** Query keys of the alerts area; never inline string keys. */
export const alertKeys = {
  all: ['alerts'] as const,
  project: (orgId: string, projectId: string) => [...alertKeys.all, orgId, projectId] as const,
  list: (orgId: string, projectId: string, state: AlertState, filters: readonly string[]) =>
    [...alertKeys.project(orgId, projectId), 'list', state, [...filters]] as const,
  refusals: (orgId: string, projectId: string) => [...alertKeys.project(orgId, projectId), 'refusals'] as const,
  preview: (orgId: string, projectId: string, body: unknown) =>
    [...alertKeys.project(orgId, projectId), 'preview', body] as const,
  silenceRef: (orgId: string, projectId: string, silenceId: string) =>
    [...alertKeys.project(orgId, projectId), 'silence', silenceId] as const,
};
