import { HydrationBoundary } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { GET as effectivePermissions } from '@/app/v1/organizations/[orgId]/permissions/route';
import { GET as listProjects } from '@/app/v1/organizations/[orgId]/projects/route';
import { GET as listOrganizations } from '@/app/v1/organizations/route';
import { ConsoleShell } from '@/components/console/shell';
import { accessKeys } from '@/lib/access/keys';
import { prefetched } from '@/lib/console/server-prefetch';
import { orgKeys, PICKER } from '@/lib/orgs/keys';

/**
 * Every page of an organization: the shell, rendered on the server with what it and most pages read first (the
 * organizations, the organization's projects, the caller's permissions), so the first paint already holds the
 * navigation and the panels that depend on them, instead of waiting for three requests after hydration.
 */
export default async function OrganizationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgId: string }>;
}) {
  const { orgId } = await params;
  const limit = { limit: String(PICKER.pageSize) };
  const state = await prefetched(
    { queryKey: orgKeys.list(), handler: listOrganizations, path: '/v1/organizations', search: limit, paged: true },
    {
      queryKey: orgKeys.projects(orgId),
      handler: listProjects,
      path: `/v1/organizations/${orgId}/projects`,
      params: { orgId },
      search: limit,
      paged: true,
    },
    {
      queryKey: accessKeys.permissions(orgId),
      handler: effectivePermissions,
      path: `/v1/organizations/${orgId}/permissions`,
      params: { orgId },
    },
  );
  return (
    <HydrationBoundary state={state}>
      <ConsoleShell orgId={orgId}>{children}</ConsoleShell>
    </HydrationBoundary>
  );
}
