'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { hasGrant, usePermissions } from '../access/queries';
import { apiFetch, apiGet } from '../api-client';
import type { Page } from '../http/pagination';
import type { CreateSilenceBody, Silence, UpdateSilenceBody } from './schema';

const base = (orgId: string, projectId: string) => `/v1/organizations/${orgId}/projects/${projectId}/obs/silences`;

/** Query keys of the silences area; never inline string keys. */
export const silenceKeys = {
  all: ['silences'] as const,
  list: (orgId: string, projectId: string) => [...silenceKeys.all, orgId, projectId, 'list'] as const,
  one: (orgId: string, projectId: string, silenceId: string) =>
    [...silenceKeys.all, orgId, projectId, silenceId] as const,
};

export function useSilences(orgId: string, projectId: string) {
  return useQuery({
    queryKey: silenceKeys.list(orgId, projectId),
    queryFn: () => apiGet<Page<Silence>>(`${base(orgId, projectId)}?limit=100`),
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
      void client.invalidateQueries({ queryKey: silenceKeys.list(orgId, projectId) });
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
    onSuccess: () => void client.invalidateQueries({ queryKey: silenceKeys.list(orgId, projectId) }),
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
      void client.invalidateQueries({ queryKey: silenceKeys.list(orgId, projectId) });
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
