import 'server-only';
import { accessKeys } from '../../lib/access/keys';
import { effectivePermissionsRoute } from '../../lib/access/routes';
import type { EffectivePermissions } from '../../lib/access/schema';
import type { Page } from '../../lib/http/pagination';
import { orgKeys, PICKER } from '../../lib/orgs/keys';
import { listOrganizationsRoute, listProjectsRoute } from '../../lib/orgs/routes';
import type { Project } from '../../lib/orgs/schema';
import { serverRead, type Read } from './prefetch';

/*
 * What an organization's layout reads for its shell (app/(console)/orgs/[orgId]/layout.tsx). A page that needs one
 * of them to choose its own reads (which keys, which projects' panels) asks with the same read, and so gets the
 * layout's answer instead of reading again (serverRead reads each once per request).
 */

export const organizationsRead = (): Read => ({
  queryKey: orgKeys.list(),
  handler: listOrganizationsRoute,
  path: '/v1/organizations',
  paged: true,
  pageSize: PICKER.pageSize,
});

export const projectsRead = (orgId: string): Read => ({
  queryKey: orgKeys.projects(orgId),
  handler: listProjectsRoute,
  path: `/v1/organizations/${orgId}/projects`,
  params: { orgId },
  paged: true,
  pageSize: PICKER.pageSize,
});

export const permissionsRead = (orgId: string): Read => ({
  queryKey: accessKeys.permissions(orgId),
  handler: effectivePermissionsRoute,
  path: `/v1/organizations/${orgId}/permissions`,
  params: { orgId },
});

/** The caller's permissions in the organization, or undefined if the read was refused or failed. */
export const serverPermissions = (orgId: string) => serverRead<EffectivePermissions>(permissionsRead(orgId));

/** The organization's first page of projects (a picker's page), or undefined. */
export const serverProjects = (orgId: string) => serverRead<Page<Project>>(projectsRead(orgId));
