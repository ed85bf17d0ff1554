'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { usePagedList } from '../console/paged-list';
import type { Organization, Project, UpdateOrganizationBody } from './schema';

import { orgKeys, PICKER } from './keys';

export { orgKeys, PICKER };

export function useOrganizations() {
  return usePagedList<Organization>(orgKeys.list(), '/v1/organizations', {}, PICKER);
}

export function useProjects(orgId: string) {
  return usePagedList<Project>(orgKeys.projects(orgId), `/v1/organizations/${orgId}/projects`, {}, PICKER);
}

/** `PATCH /v1/organizations/{orgId}` (sudo): the organization's settings, such as its second-factor policy. */
export function useUpdateOrganization(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateOrganizationBody) =>
      (await apiFetch<Organization>(`/v1/organizations/${orgId}`, { method: 'PATCH', body })).data,
    onSettled: () => client.invalidateQueries({ queryKey: orgKeys.list() }),
  });
}
