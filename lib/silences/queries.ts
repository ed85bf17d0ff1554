'use client';

import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { hasGrant, usePermissions } from '../access/queries';
import { apiFetch, apiGet } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { LIVE_REFRESH_MS } from '../console/page-size';
import { SILENCE_SEARCH_WALK, silenceKeys } from './keys';
import type { CreateSilenceBody, Silence, SilenceCounts, SilenceState, UpdateSilenceBody } from './schema';

const base = (orgId: string, projectId: string) => `/v1/organizations/${orgId}/projects/${projectId}/obs/silences`;

export { silenceKeys };

/** A change can move a silence between states: every list and the counts of the project refresh. */
function refreshListsAndCounts(client: QueryClient, orgId: string, projectId: string): void {
  void client.invalidateQueries({
    queryKey: silenceKeys.project(orgId, projectId),
    predicate: (query) => query.queryKey[3] === 'list' || query.queryKey[3] === 'counts',
  });
}

/** One state's silences, paged by the server (its `state` filter), newest first; refreshed while visible (what each mutes). */
export function useSilences(orgId: string, projectId: string, state: SilenceState, enabled = true, q?: string) {
  return usePagedList<Silence>(
    silenceKeys.list(orgId, projectId, state, q),
    base(orgId, projectId),
    { state, q },
    { enabled, refetchInterval: LIVE_REFRESH_MS, search: { walk: SILENCE_SEARCH_WALK, noun: `${state} silences` } },
  );
}

/** How many silences are in each state, counted by the server (the tabs' numbers). */
export function useSilenceCounts(orgId: string, projectId: string, enabled = true) {
  return useQuery({
    queryKey: silenceKeys.counts(orgId, projectId),
    queryFn: () => apiGet<SilenceCounts>(`${base(orgId, projectId)}/counts`),
    enabled,
    // Silences start and end by the clock: the tabs' numbers follow while the page is visible.
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** One silence with the ETag it was read at, which the edit form sends back in If-Match. */
export function useSilence(orgId: string, projectId: string, silenceId: string | null) {
  return useQuery({
    queryKey: silenceKeys.one(orgId, projectId, silenceId ?? ''),
    // A new silence (no id yet) has nothing to load.
    enabled: silenceId !== null,
    queryFn: async () => {
      const { data, response } = await apiFetch<Silence>(`${base(orgId, projectId)}/${silenceId}`);
      return { silence: data, etag: response.headers.get('etag') ?? `"${data.version}"` };
    },
    // The form must keep the version it opened with until the user chooses to reload.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useUpdateSilence(orgId: string, projectId: string, silenceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { body: UpdateSilenceBody; etag: string; idempotencyKey: string }) => {
      const { data, response } = await apiFetch<Silence>(`${base(orgId, projectId)}/${silenceId}`, {
        method: 'PATCH',
        body: input.body,
        headers: { 'If-Match': input.etag, 'Idempotency-Key': input.idempotencyKey },
      });
      return { silence: data, etag: response.headers.get('etag') ?? `"${data.version}"` };
    },
    onSuccess: (result) => {
      client.setQueryData(silenceKeys.one(orgId, projectId, silenceId), result);
      // A change can move the silence between states: every list and the counts of the project refresh.
      refreshListsAndCounts(client, orgId, projectId);
    },
  });
}

/** POST a new silence under one Idempotency-Key per submission; the list then shows it. */
export function useCreateSilence(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { body: CreateSilenceBody; idempotencyKey: string }) =>
      (
        await apiFetch<Silence>(base(orgId, projectId), {
          method: 'POST',
          body: input.body,
          headers: { 'Idempotency-Key': input.idempotencyKey },
        })
      ).data,
    onSuccess: () => refreshListsAndCounts(client, orgId, projectId),
  });
}

/** DELETE ends the silence now, if it is still the version the form loaded (If-Match). */
export function useExpireSilence(orgId: string, projectId: string, silenceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { etag: string }) => {
      const { data, response } = await apiFetch<Silence>(`${base(orgId, projectId)}/${silenceId}`, {
        method: 'DELETE',
        headers: { 'If-Match': input.etag },
      });
      return { silence: data, etag: response.headers.get('etag') ?? `"${data.version}"` };
    },
    onSuccess: (result) => {
      client.setQueryData(silenceKeys.one(orgId, projectId, silenceId), result);
      refreshListsAndCounts(client, orgId, projectId);
    },
  });
}

/** Whether the caller may create silences here; null while unknown. */
export function useCanCreateSilences(orgId: string, projectId: string): boolean | null {
  return hasGrant(usePermissions(orgId).data, 'obs.silences.create', projectId) ?? null;
}

/** Whether the caller may change silences here; null while unknown. */
export function useCanUpdateSilences(orgId: string, projectId: string): boolean | null {
  return hasGrant(usePermissions(orgId).data, 'obs.silences.update', projectId) ?? null;
}
