import { z } from 'zod';
import { PERMISSIONS } from '../auth/policies';

const permission = z.enum(PERMISSIONS);

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
