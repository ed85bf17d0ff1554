import { z } from 'zod';
import { canonicalIpRange } from './ip-ranges';
import { KEY_POLICY_FIELDS } from './key-scope';
import { PERMISSIONS } from '../permissions';

/** Most entries a key's or a policy's `allowedIps` takes. */
export const MAX_IP_RANGES = 50;

export const ipRange = z
  .string()
  .max(64, 'Use at most 64 characters.')
  .refine((text) => canonicalIpRange(text) !== null, 'Enter an IPv4 or IPv6 address or CIDR range (203.0.113.0/24).')
  .meta({ description: 'An IPv4 or IPv6 address (/32 or /128) or CIDR range; IPv4-mapped IPv6 is folded to IPv4.' });

export const ipRanges = z
  .array(ipRange)
  .min(1, 'Give at least one range, or null for anywhere.')
  .max(MAX_IP_RANGES, `At most ${MAX_IP_RANGES} ranges.`);

/** The restriction fields of create and PATCH: absent on PATCH leaves one as it is, null lifts it. */
export const restrictionFields = {
  permissions: z
    .array(z.enum(PERMISSIONS))
    .min(1, 'Give at least one permission, or null for all the owner holds.')
    .max(PERMISSIONS.length)
    .nullable()
    .optional()
    .meta({
      description: 'What the key may use of its owner’s permissions; absent or null: all of them ("Full access").',
    }),
  projectIds: z
    .array(z.uuid())
    .min(1, 'Give at least one project, or null for every project.')
    .max(100)
    .nullable()
    .optional()
    .meta({ description: 'The projects the key acts in; absent or null: every project, present and future.' }),
  allowedIps: ipRanges
    .nullable()
    .optional()
    .meta({ description: 'Where the key may be used from; absent or null: anywhere.' }),
};

export const updateApiKeyBody = z.strictObject(restrictionFields).meta({ id: 'UpdateApiKey' });
export type UpdateApiKeyInput = z.input<typeof updateApiKeyBody>;

/** The restrictions as an ApiKey shows them: null where the key is unrestricted. */
export const restrictionOutput = {
  permissions: z.array(z.string()).nullable(),
  projectIds: z.array(z.uuid()).nullable(),
  allowedIps: z.array(z.string()).nullable().meta({ description: 'Canonical CIDR ranges.' }),
  policyViolations: z
    .array(z.enum(KEY_POLICY_FIELDS))
    .meta({ description: 'The organization key policy’s rules this key breaks; while any, it is refused (403).' }),
};

export const keyPolicy = z
  .strictObject({
    maxLifetimeDays: z.int('Enter a whole number of days.').min(1).max(365).nullable(),
    requireRestrictions: z.boolean(),
    allowedIps: ipRanges.nullable(),
  })
  .meta({ id: 'KeyPolicy' });
