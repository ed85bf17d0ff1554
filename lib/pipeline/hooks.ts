import type { ErrorCode } from '../errors';
import { hook } from '../hooks';
import type { Principal } from '../auth/principal';

/**
 * What the pipeline asks of features without importing them (docs/architecture.md, "Floors"). server/hooks.ts
 * registers the answers at start-up; a request that finds none is refused with a 500 rather than let through.
 * Answers are data, never thrown errors: the hooks run in start-up's bundle, whose ApiError is another class.
 */
export type PipelineHooks = {
  /**
   * A refusal that depends on the organization, checked after the credential kind and before the permission
   * (the second-factor policy's 403 `two_factor_required`), or null to go on.
   */
  refusalInOrganization: (principal: Principal, organizationId: string) => Promise<ErrorCode | null>;
  /** For operations declared `sudo`: whether the caller is outside its window (403 `reauthentication_required`). */
  outsideSudo: (principal: Principal) => Promise<boolean>;
};

const pipeline = hook<PipelineHooks>('pipeline');

export const registerPipelineHooks = pipeline.register;

export const pipelineHooks = pipeline.get;
