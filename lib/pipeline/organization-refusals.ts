import { ApiError } from '../errors';
import type { Principal } from '../auth/principal';
import { pipelineHooks } from './hooks';

/** The organization's own refusal of the caller (`refusalInOrganization`) as the error to answer, on every route of an organization. */
export async function checkOrganizationRefusals(principal: Principal, organizationId: string): Promise<void> {
  const refusal = await pipelineHooks().refusalInOrganization(principal, organizationId);
  if (refusal) throw new ApiError(refusal);
}
