import { z } from 'zod';

/**
 * The resources with a short id (`slug`) beside their uuid, and its prefix: `que_`, `qsb_` or `sil_` and 12 of
 * `[a-z0-9]`. The console shows the short id, so every `/v1` path that takes one of these ids takes either form.
 */
export const SHORT_ID_PREFIXES = { queue: 'que', subscription: 'qsb', silence: 'sil' } as const;

export type ShortIdResource = keyof typeof SHORT_ID_PREFIXES;
export type ShortIdPrefix = (typeof SHORT_ID_PREFIXES)[ShortIdResource];

export const shortIdPattern = (prefix: ShortIdPrefix) => new RegExp(`^${prefix}_[a-z0-9]{12}$`);

// Which path parameter schemas name a resource: the pipeline reads it to resolve a short id in the caller's scope.
const declared = new WeakMap<z.ZodType, ShortIdResource>();

/** A path parameter that takes the resource's uuid or its short id (the pipeline hands the handler the uuid). */
export function resourceIdParam(resource: ShortIdResource) {
  const prefix = SHORT_ID_PREFIXES[resource];
  const schema = z.union([z.uuid(), z.string().regex(shortIdPattern(prefix))]).meta({
    description: `The ${resource}'s id: its uuid, or its short id (\`${prefix}_\` and 12 of \`[a-z0-9]\`).`,
  });
  declared.set(schema, resource);
  return schema;
}

/** The resource a path parameter's schema names, when it takes a short id. */
export function shortIdResourceOf(schema: z.ZodType): ShortIdResource | undefined {
  return declared.get(schema);
}

/** The resources whose path ids are uuids only, and the noun a 404 names one by. */
export const UUID_ID_NOUNS = { apiKey: 'API key', bot: 'bot', webhook: 'webhook', member: 'member' } as const;

export type UuidIdResource = keyof typeof UUID_ID_NOUNS;

const declaredUuid = new WeakMap<z.ZodType, UuidIdResource>();

/**
 * A path parameter that takes a resource's uuid (it has no short id). Declared, so a malformed one's 404 names it
 * like an unknown one's, which the resource's own service says: `No API key … in this organization.`
 */
export function uuidIdParam(resource: UuidIdResource) {
  const noun = UUID_ID_NOUNS[resource];
  const schema = z.uuid().meta({ description: `The ${noun}'s id; a 404 names one that is not in this organization.` });
  declaredUuid.set(schema, resource);
  return schema;
}

/** The noun a 404 names a path parameter's resource by, for either kind of declared id parameter. */
export function idNounOf(schema: z.ZodType): string | undefined {
  const uuidOnly = declaredUuid.get(schema);
  return uuidOnly ? UUID_ID_NOUNS[uuidOnly] : declared.get(schema);
}

/** Whether a path value is a short id (rather than a uuid). */
export const isShortId = (value: string) => /^[a-z]{3}_[a-z0-9]{12}$/.test(value);
