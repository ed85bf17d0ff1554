'use client';

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { LIVE_REFRESH_MS } from '../console/page-size';
import type { PreviewSilenceBody, Silence } from '../silences/schema';
import { alertKeys } from './keys';
import type { Alert, AlertRefusals, AlertState, PreviewAnswer } from './schema';

const project = (orgId: string, projectId: string) => `/v1/organizations/${orgId}/projects/${projectId}`;

export { alertKeys };

/** One state's alerts matching every filter (the API's matcher syntax), newest first, refreshed while visible. */
export function useAlerts(orgId: string, projectId: string, state: AlertState, filters: readonly string[]) {
  return usePagedList<Alert>(
    alertKeys.list(orgId, projectId, state, filters),
    `${project(orgId, projectId)}/obs/alerts`,
    { state, filter: filters },
    { refetchInterval: LIVE_REFRESH_MS },
  );
}

/** What a draft silence would mute now; null asks nothing (no valid matcher yet). The last answer stays while typing. */
export function useSilencePreview(orgId: string, projectId: string, body: PreviewSilenceBody | null) {
  return useQuery({
    queryKey: alertKeys.preview(orgId, projectId, body),
    queryFn: async () =>
      (
        await apiFetch<PreviewAnswer>(`${project(orgId, projectId)}/obs/silences/preview`, {
          method: 'POST',
          body,
        })
      ).data,
    enabled: body !== null,
    placeholderData: keepPreviousData,
    // A refused draft (a rule the form has not flagged yet) is not worth asking again and again.
    retry: false,
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** What the project's Alertmanager API refused lately, refreshed while visible. */
/** A sender was just made and its first post is awaited: asked this often until it arrives. */
const AWAITING_POST_REFRESH_MS = 3_000;

/**
 * The project's last alert post and refusals. `awaitingPostSince`: a sender made then has not posted yet, so the
 * answer is asked for every few seconds until a post at least that recent shows.
 */
export function useAlertRefusals(orgId: string, projectId: string, awaitingPostSince?: string) {
  return useQuery({
    queryKey: alertKeys.refusals(orgId, projectId),
    queryFn: () => apiGet<AlertRefusals>(`${project(orgId, projectId)}/obs/alerts/refusals`),
    // The last post's time, like the lists, is asked again on coming back to the page.
    refetchOnWindowFocus: 'always',
    refetchInterval: (query) => {
      const last = query.state.data?.lastPostAt;
      const awaiting = awaitingPostSince && !(last && Date.parse(last) >= Date.parse(awaitingPostSince));
      return awaiting ? AWAITING_POST_REFRESH_MS : LIVE_REFRESH_MS;
    },
  });
}

/** A silence that mutes an alert, for its link's name; not the editor's copy (that keeps its ETag). */
export function useSilenceRef(orgId: string, projectId: string, silenceId: string) {
  return useQuery({
    queryKey: alertKeys.silenceRef(orgId, projectId, silenceId),
    queryFn: () => apiGet<Silence>(`${project(orgId, projectId)}/obs/silences/${silenceId}`),
    staleTime: LIVE_REFRESH_MS,
  });
}

/** After a silence is made or changed, what every alert list of the project says may have changed. */
export function useRefreshAlerts(orgId: string, projectId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: alertKeys.project(orgId, projectId) });
}
