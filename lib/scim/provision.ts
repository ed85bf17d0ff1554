import { z } from 'zod';
import { emailAddress, personName } from '../onboarding/schema';
import { scimBoolean, ScimError, toScimUser } from './resource';
import { scimJson, type ScimContext } from './http';
import { provisionScimUser } from './provision-service';

const nameOf = (user: Record<string, unknown>): unknown => {
  const name = user.name as { formatted?: unknown; givenName?: unknown; familyName?: unknown } | undefined;
  if (typeof name?.formatted === 'string') return name.formatted;
  const parts = [name?.givenName, name?.familyName].filter((p) => typeof p === 'string');
  return parts.length > 0 ? parts.join(' ') : (user.displayName ?? user.userName);
};

const createUser = z.object({
  userName: emailAddress,
  name: personName,
  externalId: z.string().max(255).nullable(),
});

/** POST /scim/v2/Users: `userName` must be an email; the name is `name.formatted`, given + family, or displayName. */
export async function createScimUser({ organizationId, baseUrl, body, audit }: ScimContext): Promise<Response> {
  const user = body();
  if (typeof user !== 'object' || user === null || Array.isArray(user))
    throw new ScimError(400, 'The body must be a User.', 'invalidSyntax');
  const fields = user as Record<string, unknown>;
  const parsed = createUser.safeParse({
    userName: fields.userName,
    name: nameOf(fields),
    externalId: fields.externalId ?? null,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ScimError(400, `${issue.path.join('.') || 'User'}: ${issue.message}`, 'invalidValue');
  }
  const active = fields.active === undefined ? true : scimBoolean(fields.active);
  if (active === undefined) throw new ScimError(400, '`active` must be true or false.', 'invalidValue');
  const row = await provisionScimUser(
    organizationId,
    { email: parsed.data.userName, name: parsed.data.name, externalId: parsed.data.externalId, active },
    audit,
  );
  const res = scimJson(toScimUser(row, baseUrl), 201);
  res.headers.set('location', `${baseUrl}/scim/v2/Users/${row.id}`);
  return res;
}
