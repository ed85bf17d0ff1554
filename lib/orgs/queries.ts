'use client';

import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import type { Page } from '../http/pagination';
import type { Organization, Project } from './schema';

/** Query keys of the organizations area; never inline string keys. */
export const orgKeys = {
  all: ['organizations'] as const,
  list: () => [...orgKeys.all, 'list'] as const,
  projects: (orgId: string) => [...orgKeys.all, orgId, 'projects'] as const,
};

export function useOrganizations() {
  return useQuery({
    queryKey: orgKeys.list(),
    queryFn: () => apiGet<Page<Organization>>('/v1/organizations?limit=100'),
  });
}

export function useProjects(orgId: string) {
  return useQuery({
    queryKey: orgKeys.projects(orgId),
    queryFn: () => apiGet<Page<Project>>(`/v1/organizations/${orgId}/projects?limit=100`),
  });
}
