'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { useWrite } from '../console/write';
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
  return useWrite<UpdateOrganizationBody, Organization>(
    (body) => [`/v1/organizations/${orgId}`, { method: 'PATCH', body }],
    orgKeys.list(),
  );
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
  return useWrite<CreateProjectBody, Project>(
    (body) => [`/v1/organizations/${orgId}/projects`, { method: 'POST', body }],
    orgKeys.projects(orgId),
  );
}

/** `PATCH …/projects/{projectId}` (`projects.update`): its name, or alerting on or off. */
export function useUpdateProject(orgId: string) {
  return useWrite<UpdateProjectBody & { projectId: string }, Project>(
    ({ projectId, ...body }) => [`/v1/organizations/${orgId}/projects/${projectId}`, { method: 'PATCH', body }],
    orgKeys.projects(orgId),
  );
}
