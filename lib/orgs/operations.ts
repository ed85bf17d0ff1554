import { z } from 'zod';
import { ANY_CREDENTIAL, CONSOLE_SESSION, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import {
  createOrganizationBody,
  createProjectBody,
  orgParams,
  organization,
  project,
  projectParams,
  updateOrganizationBody,
  updateProjectBody,
} from './schema';

export const listOrganizationsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations',
  summary: "List the caller's organizations",
  description: 'Every organization the caller is a member of; an API key or a bot sees only its own.',
  tags: ['Organizations'],
  scope: 'none',
  credentials: ANY_CREDENTIAL,
  self: { restrictedKeys: 'always' },
  query: pageQuery,
  success: { status: 200, description: 'A page of organizations.', schema: pageOf(organization) },
  errors: ['invalid_cursor'],
});

export const listProjectsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/projects',
  summary: "List an organization's projects",
  tags: ['Organizations'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  query: pageQuery,
  permission: 'projects.get',
  success: { status: 200, description: 'A page of projects.', schema: pageOf(project) },
  errors: ['invalid_cursor'],
});

export const updateOrganizationOp = defineOperation({
  method: 'PATCH',
  path: '/v1/organizations/{orgId}',
  summary: "Change an organization's settings",
  description:
    '`name`: 1 to 100 characters. `requireTwoFactor`: while on, members without a second factor (password users; single sign-on users are exempt) ' +
    'get 403 `two_factor_required` on this organization with any credential. Turning it on needs the caller to have a ' +
    'second factor (else 403 `two_factor_required`). Audited as `organization.updated`; `{}` changes nothing.',
  tags: ['Organizations'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  body: updateOrganizationBody,
  permission: 'orgs.update',
  success: { status: 200, description: 'The organization as changed.', schema: organization },
});

export const healthOp = defineOperation({
  method: 'GET',
  path: '/v1/health',
  summary: 'Whether the service and its database are ready',
  description: 'Readiness: 200 when the database answers, 503 with Retry-After when it does not.',
  tags: ['Service'],
  scope: 'none',
  credentials: 'public',
  success: { status: 200, description: 'Ready.', schema: z.object({ status: z.literal('ok') }) },
  errors: ['unavailable'],
});

export const livenessOp = defineOperation({
  method: 'GET',
  path: '/v1/health/live',
  summary: 'Whether the process answers (no database)',
  description:
    'Liveness: answers 200 as long as the process serves requests, whatever the database does. ' +
    '`GET /v1/health` is readiness: it also asks the database.',
  tags: ['Service'],
  scope: 'none',
  credentials: 'public',
  success: { status: 200, description: 'The process is alive.', schema: z.object({ status: z.literal('ok') }) },
});

export const createOrganizationOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations',
  summary: 'Create an organization',
  description:
    'A person, signed in to the console, makes an organization and becomes its OrganizationAdmin (audit ' +
    '`organization.created`). API keys and OAuth tokens: 403 `access_denied`.',
  tags: ['Organizations'],
  scope: 'none',
  credentials: CONSOLE_SESSION,
  credentialRefusal: 'Organizations are made by a person signed in to the console, not with a key or token.',
  self: {},
  body: createOrganizationBody,
  success: { status: 201, description: 'The organization; the caller is its OrganizationAdmin.', schema: organization },
});

export const createProjectOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/projects',
  summary: 'Create a project',
  description: 'Names are unique in the organization, case aside: 409 `project_name_taken`. Audit `project.created`.',
  tags: ['Organizations'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  body: createProjectBody,
  permission: 'projects.create',
  success: { status: 201, description: 'The project.', schema: project },
  errors: ['project_name_taken'],
});

export const updateProjectOp = defineOperation({
  method: 'PATCH',
  path: '/v1/organizations/{orgId}/projects/{projectId}',
  summary: 'Rename a project or switch its alerting',
  description:
    'Names are unique in the organization (409 `project_name_taken`). Alerting off closes the project’s silence ' +
    'routes (404) on the next request. Audit `project.updated` with the changes; `{}` changes nothing.',
  tags: ['Organizations'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  params: projectParams,
  body: updateProjectBody,
  permission: 'projects.update',
  success: { status: 200, description: 'The project as changed.', schema: project },
  errors: ['project_name_taken'],
});

export const orgOperations = [
  healthOp,
  livenessOp,
  listOrganizationsOp,
  createOrganizationOp,
  updateOrganizationOp,
  listProjectsOp,
  createProjectOp,
  updateProjectOp,
];
