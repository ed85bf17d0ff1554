import { z } from 'zod';

export const orgParams = z.object({ orgId: z.uuid() });
export const projectParams = z.object({ orgId: z.uuid(), projectId: z.uuid() });

export const organization = z
  .object({
    id: z.uuid(),
    name: z.string(),
    requireTwoFactor: z.boolean().meta({ description: 'Members without a second factor are refused (403).' }),
  })
  .meta({ id: 'Organization' });

export const updateOrganizationBody = z.strictObject({ requireTwoFactor: z.boolean().optional() });
export type UpdateOrganizationBody = z.infer<typeof updateOrganizationBody>;
export const project = z
  .object({ id: z.uuid(), organizationId: z.uuid(), name: z.string(), alertingEnabled: z.boolean() })
  .meta({ id: 'Project' });

export type Organization = z.infer<typeof organization>;
export type Project = z.infer<typeof project>;
