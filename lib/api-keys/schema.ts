import { z } from 'zod';
import { uuidIdParam } from '../short-ids';
import { atMostCharacters } from '../characters';
import { pageQuery, searchQuery } from '../http/pagination';
import { restrictionFields, restrictionOutput } from '../auth/key-restriction-schema';

/** The create body, shared by the route and the console's form. Unknown fields are refused. */
export const createApiKeyBody = z
  .strictObject({
    name: atMostCharacters(z.string().trim().min(1, 'Enter a name.'), 100, 'Use at most 100 characters.'),
    expiresInDays: z.int('Enter a whole number of days.').min(1).max(365).nullable().optional(),
    botId: z.uuid().optional(),
    ...restrictionFields,
  })
  .meta({ id: 'CreateApiKey' });

export type CreateApiKeyInput = z.input<typeof createApiKeyBody>;

export const apiKeyParams = z.object({ orgId: z.uuid(), keyId: uuidIdParam('apiKey') });

export const listApiKeysQuery = pageQuery.extend({
  owner: z.enum(['me']).optional().meta({ description: '`me`: only the caller’s own keys.' }),
  expiring: z
    .enum(['soon'])
    .optional()
    .meta({ description: '`soon`: only keys that expire within 7 days (and have not yet).' }),
  q: searchQuery('Keys whose name contains this text (any case) or whose prefix starts with it (`svc_AbC1`).'),
});

/** "Expiring soon": within this many days, as the console's badge and filter and the CLI's column say. */
export const EXPIRING_SOON_DAYS = 7;

/** The roll body, shared by the route and the console's form. */
export const rollApiKeyBody = z
  .strictObject({
    gracePeriodSeconds: z
      .int('Enter a whole number of seconds.')
      .min(0)
      .max(604_800, 'At most 7 days (604800 seconds).')
      .meta({ description: 'How long the old key keeps working; 0 revokes it at once.' }),
  })
  .meta({ id: 'RollApiKey' });

export type RollApiKeyInput = z.input<typeof rollApiKeyBody>;

/** Grace choices of the console's roll dialog, in seconds. */
export const GRACE_CHOICES = [
  { seconds: 0, label: 'Now' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
] as const;

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
    expiringSoon: z.boolean().meta({ description: 'Expires within 7 days and has not yet.' }),
    rolledAt: z.iso.datetime().nullable().meta({ description: 'When a roll replaced this key; null otherwise.' }),
    stopsAt: z.iso.datetime().nullable().meta({ description: 'A rolled key works until this instant.' }),
    ...restrictionOutput,
  })
  .meta({ id: 'ApiKey' });

export const createdApiKey = z
  .object({ apiKey, secret: z.string().meta({ description: 'The full key. Shown in this response only.' }) })
  .meta({ id: 'CreatedApiKey' });

export const rolledApiKey = z
  .object({
    apiKey,
    secret: z.string().meta({ description: 'The new key. Shown in this response only.' }),
    previous: apiKey.meta({ description: 'The old key, working until its `stopsAt`.' }),
  })
  .meta({ id: 'RolledApiKey' });

export const currentApiKey = z
  .object({
    apiKey,
    organizationId: z.uuid(),
    effective: z
      .array(z.object({ permission: z.string(), projectId: z.uuid().nullable() }))
      .meta({ description: 'What the key may do now: organization-wide (projectId null) or in one project.' }),
    clientIp: z.string().meta({ description: 'The client address as the server sees it (`unknown` when none).' }),
  })
  .meta({ id: 'CurrentApiKey' });

export type CurrentApiKey = z.infer<typeof currentApiKey>;

export const apiKeyAccess = z
  .object({
    apiKey,
    permissions: z
      .array(z.object({ permission: z.string(), projectId: z.uuid().nullable(), ownerHolds: z.boolean() }))
      .meta({
        description:
          'What the key would use of its owner’s permissions, at each scope it reaches (projectId null: the organization); ' +
          '`ownerHolds` false where the owner has lost it since, so the key cannot use it.',
      }),
  })
  .meta({ id: 'ApiKeyAccess' });

export type ApiKeyAccess = z.infer<typeof apiKeyAccess>;

export const apiKeyUsage = z
  .object({
    days: z.array(z.object({ date: z.iso.date(), requests: z.int().min(0) })).meta({
      description: 'The last 30 UTC days, oldest first, today last; days without requests are 0.',
    }),
  })
  .meta({ id: 'ApiKeyUsage' });

export const apiKeyLeak = z
  .object({
    keyId: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    owner: apiKeyOwner,
    url: z.string().nullable().meta({ description: 'Where the key was found, as the report said.' }),
    leakedAt: z.iso.datetime(),
  })
  .meta({ id: 'ApiKeyLeak' });

export const leakParams = z.object({ orgId: z.uuid(), keyId: z.uuid() });

export type ApiKey = z.infer<typeof apiKey>;
export type RolledApiKey = z.infer<typeof rolledApiKey>;
export type ApiKeyUsage = z.infer<typeof apiKeyUsage>;
export type ApiKeyLeak = z.infer<typeof apiKeyLeak>;
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** Expiry choices of the console form, in days; null is "Never". */
export const EXPIRY_CHOICES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Never' },
] as const;
