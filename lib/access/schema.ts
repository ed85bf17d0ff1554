import { z } from 'zod';
import { PERMISSIONS } from '../permissions';

const permission = z.enum(PERMISSIONS);

/** A policy bound at organization scope (`projectId` null) or in one project: members and bots list theirs. */
export const policyBinding = z.object({ policy: z.string(), projectId: z.uuid().nullable() });

/** The bindings a member, bot or invitation is given: each once, at most 50. */
export const policyList = z
  .array(z.strictObject({ policy: z.string().min(1).max(100), projectId: z.uuid().nullable() }))
  .max(50, 'Bind at most 50 policies.')
  .meta({ description: 'Each `{policy, projectId}` once; `projectId` null binds at organization scope.' });

export const effectivePermissions = z
  .object({
    principal: z.object({ type: z.enum(['user', 'bot']), id: z.uuid(), name: z.string() }),
    organization: z.array(permission).meta({ description: 'Granted at organization scope (and so in every project).' }),
    projects: z
      .array(z.object({ projectId: z.uuid(), permissions: z.array(permission) }))
      .meta({ description: 'Per project: organization-scope grants plus that project’s own.' }),
  })
  .meta({ id: 'EffectivePermissions' });

export type EffectivePermissions = z.infer<typeof effectivePermissions>;
