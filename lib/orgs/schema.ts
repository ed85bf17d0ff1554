import { z } from 'zod';

export const orgParams = z.object({ orgId: z.uuid() });
export const projectParams = z.object({ orgId: z.uuid(), projectId: z.uuid() });

export const organization = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'Organization' });
export const project = z
  .object({ id: z.uuid(), organizationId: z.uuid(), name: z.string(), alertingEnabled: z.boolean() })
  .meta({ id: 'Project' });

export type Organization = z.infer<typeof organization>;
export type Project = z.infer<typeof project>;
