import type { ScimResource } from 'scim-patch';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimUserRow = {
  id: string;
  email: string;
  name: string;
  status: 'active' | 'suspended';
  scimExternalId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type ScimUser = ScimResource & {
  id: string;
  externalId?: string;
  userName: string;
  displayName: string;
  name: { formatted: string };
  active: boolean;
  emails: { value: string; type: string; primary: boolean }[];
};

export function toScimUser(row: ScimUserRow, baseUrl: string): ScimUser {
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.scimExternalId ? { externalId: row.scimExternalId } : {}),
    userName: row.email,
    displayName: row.name,
    name: { formatted: row.name },
    active: row.status === 'active',
    emails: [{ value: row.email, type: 'work', primary: true }],
    meta: {
      resourceType: 'User',
      created: row.createdAt,
      lastModified: row.updatedAt,
      location: `${baseUrl}/scim/v2/Users/${row.id}`,
    } as ScimUser['meta'],
  };
}

/** SCIM's boolean as identity providers send it: `false`, or Entra's string `"False"` in any case. */
export function scimBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return undefined;
}

/** A SCIM error (RFC 7644 §3.12): `{schemas, status, scimType?, detail}`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  body() {
    return {
      schemas: [ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.message,
    };
  }
}
