import { z } from 'zod';
import { keyPolicy } from '../auth/key-restriction-schema';
import { atMostCharacters } from '../characters';

export const orgParams = z.object({ orgId: z.uuid() });
export const projectParams = z.object({ orgId: z.uuid(), projectId: z.uuid() });

export const organization = z
  .object({
    id: z.uuid(),
    name: z.string(),
    requireTwoFactor: z.boolean().meta({ description: 'Members without a second factor are refused (403).' }),
    keyPolicy: keyPolicy
      .nullable()
      .meta({ description: 'The rules every API key of the organization keeps; null: none.' }),
  })
  .meta({ id: 'Organization' });

/** An organization's or a project's name, as it is made and renamed. */
const displayName = atMostCharacters(z.string().trim().min(1, 'Enter a name.'), 100, 'Use at most 100 characters.');

export const updateOrganizationBody = z
  .strictObject({
    name: displayName.optional(),
    requireTwoFactor: z.boolean().optional(),
    keyPolicy: keyPolicy
      .nullable()
      .optional()
      .meta({ description: 'Replaces the whole key policy; null removes it. Enforced on create, roll and use.' }),
  })
  .meta({ id: 'UpdateOrganization' });
export type UpdateOrganizationBody = z.infer<typeof updateOrganizationBody>;
export const project = z
  .object({ id: z.uuid(), organizationId: z.uuid(), name: z.string(), alertingEnabled: z.boolean() })
  .meta({ id: 'Project' });

export type Organization = z.infer<typeof organization>;
export type Project = z.infer<typeof project>;

/** An organization row as the API shows it. */
export function toOrganization(row: {
  id: string;
  name: string;
  requireTwoFactor: boolean;
  keyPolicy: Organization['keyPolicy'] | null;
}): Organization {
  return { id: row.id, name: row.name, requireTwoFactor: row.requireTwoFactor, keyPolicy: row.keyPolicy ?? null };
}

const projectName = displayName;

export const createOrganizationBody = z
  .strictObject({
    name: displayName,
  })
  .meta({ id: 'CreateOrganization' });
export type CreateOrganizationBody = z.infer<typeof createOrganizationBody>;

export const createProjectBody = z
  .strictObject({
    name: projectName,
    alertingEnabled: z.boolean().optional().meta({ description: 'Default false: silences and alerts off.' }),
  })
  .meta({ id: 'CreateProject' });
export type CreateProjectBody = z.infer<typeof createProjectBody>;

export const updateProjectBody = z
  .strictObject({ name: projectName.optional(), alertingEnabled: z.boolean().optional() })
  .meta({ id: 'UpdateProject' });
export type UpdateProjectBody = z.infer<typeof updateProjectBody>;
