import { z } from 'zod';

export const orgParams = z.object({ orgId: z.uuid() });
export const projectParams = z.object({ orgId: z.uuid(), projectId: z.uuid() });

const policyBinding = z.object({ policy: z.string(), projectId: z.uuid().nullable() });

export const organization = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'Organization' });
export const project = z
  .object({ id: z.uuid(), organizationId: z.uuid(), name: z.string(), alertingEnabled: z.boolean() })
  .meta({ id: 'Project' });
export const member = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    status: z.enum(['active', 'suspended']),
    policies: z.array(policyBinding),
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: 'Member' });
export const bot = z
  .object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime(), policies: z.array(policyBinding) })
  .meta({ id: 'Bot' });

export type Organization = z.infer<typeof organization>;
export type Project = z.infer<typeof project>;
export type Member = z.infer<typeof member>;
export type Bot = z.infer<typeof bot>;
