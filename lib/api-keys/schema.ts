import { z } from 'zod';
import { pageQuery } from '../http/pagination';

/** The create body, shared by the route and the console's form. Unknown fields are refused. */
export const createApiKeyBody = z
  .strictObject({
    name: z.string().trim().min(1, 'Enter a name.').max(100, 'Use at most 100 characters.'),
    expiresInDays: z.int('Enter a whole number of days.').min(1).max(365).nullable().optional(),
    botId: z.uuid().optional(),
  })
  .meta({ id: 'CreateApiKey' });

export type CreateApiKeyInput = z.input<typeof createApiKeyBody>;

export const apiKeyParams = z.object({ orgId: z.uuid(), keyId: z.uuid() });

export const listApiKeysQuery = pageQuery.extend({
  owner: z.enum(['me']).optional().meta({ description: '`me`: only the caller’s own keys.' }),
});

export const apiKeyOwner = z.object({ type: z.enum(['user', 'bot']), id: z.uuid(), name: z.string() });

export const apiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: '`svc_` plus the first four random characters.' }),
    owner: apiKeyOwner,
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable(),
    expired: z.boolean(),
  })
  .meta({ id: 'ApiKey' });

export const createdApiKey = z
  .object({ apiKey, secret: z.string().meta({ description: 'The full key. Shown in this response only.' }) })
  .meta({ id: 'CreatedApiKey' });

export type ApiKey = z.infer<typeof apiKey>;
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** Expiry choices of the console form, in days; null is "Never". */
export const EXPIRY_CHOICES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Never' },
] as const;
