'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { usePagedList } from '../console/paged-list';
import type {
  CreateOrganizationBody,
  CreateProjectBody,
  Organization,
  Project,
  UpdateOrganizationBody,
  UpdateProjectBody,
} from './schema';

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

/** `POST /v1/organizations` (a person's session): the caller becomes its OrganizationAdmin. */
export function useCreateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateOrganizationBody) =>
      (await apiFetch<Organization>('/v1/organizations', { method: 'POST', body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.list() }),
  });
}

/** `POST …/projects` (`projects.create`). */
export function useCreateProject(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateProjectBody) =>
      (await apiFetch<Project>(`/v1/organizations/${orgId}/projects`, { method: 'POST', body })).data,
    onSettled: () => client.invalidateQueries({ queryKey: orgKeys.projects(orgId) }),
  });
}

/** `PATCH …/projects/{projectId}` (`projects.update`): its name, or alerting on or off. */
export function useUpdateProject(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ projectId, ...body }: UpdateProjectBody & { projectId: string }) =>
      (await apiFetch<Project>(`/v1/organizations/${orgId}/projects/${projectId}`, { method: 'PATCH', body })).data,
    onSettled: () => client.invalidateQueries({ queryKey: orgKeys.projects(orgId) }),
  });
}
