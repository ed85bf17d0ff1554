import { z } from 'zod';
import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams, organization, project, updateOrganizationBody } from './schema';

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
    '`requireTwoFactor`: while on, members without a second factor (password users; single sign-on users are exempt) ' +
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

export const orgOperations = [healthOp, livenessOp, listOrganizationsOp, updateOrganizationOp, listProjectsOp];
