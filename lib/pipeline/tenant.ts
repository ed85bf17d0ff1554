import type { Principal } from '../auth/principal';
import { canSeeOrganization, findProject, type ProjectRef } from '../auth/service';
import { notFound } from '../errors';
import type { Operation } from './operation';

type TenantParams = { orgId?: string; projectId?: string };
export type Tenant = { organizationId: string; project: ProjectRef | null };

/** The organization (and project) the operation's scope names, or 404 when the caller cannot see it. */
export async function resolveTenant(
  config: Partial<Pick<Operation, 'scope' | 'requireAlerting'>>,
  principal: Principal,
  path: TenantParams,
): Promise<Tenant | null> {
  if (!config.scope || config.scope === 'none') return null;
  if (!path.orgId || !(await canSeeOrganization(principal, path.orgId))) throw notFound();
  if (config.scope === 'organization') return { organizationId: path.orgId, project: null };
  const project = path.projectId ? await findProject(path.orgId, path.projectId) : null;
  if (!project || (config.requireAlerting && !project.alertingEnabled)) throw notFound();
  return { organizationId: path.orgId, project };
}
