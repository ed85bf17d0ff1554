import { bodyIsOptional } from '../http/json-body';
import {
  createDocument,
  type ZodOpenApiObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import type { z } from 'zod';
import { ERROR_CODES, errorEnvelope, type ErrorCode } from '../errors';
import type { CredentialKind, Operation } from './operation';
import { OPENAPI_TAGS } from './openapi-tags';

/** Codes every authenticated route can answer, in the order the pipeline checks them. */
const COMMON_ERRORS: ErrorCode[] = [
  'invalid_request',
  'unauthenticated',
  'access_denied',
  'forbidden_origin',
  'not_found',
  'payload_too_large',
  'too_many_requests',
  'internal_error',
  'unavailable',
];

/** Codes of an operation authenticated by a signature: no principal, so no origin, tenant or permission. */
const SIGNED_ERRORS: ErrorCode[] = [
  'invalid_request',
  'unauthenticated',
  'payload_too_large',
  'too_many_requests',
  'internal_error',
  'unavailable',
];

/** A public route still refuses a body over the limit (publicRoute), so it has a 4xx too. */
const PUBLIC_ERRORS: ErrorCode[] = ['payload_too_large', 'internal_error'];

/** How one family of operations documents itself: its error body and the schemes its credentials are. */
export type Family = {
  info: { title: string; description: string };
  errorSchema: z.ZodType;
  securitySchemes: NonNullable<ZodOpenApiObject['components']>['securitySchemes'];
  /** The security scheme(s) each credential kind is, one requirement each. */
  schemesOf: Record<CredentialKind, string[]>;
};

function errorResponses(op: Operation, family: Family) {
  const common =
    op.credentials === 'public' ? PUBLIC_ERRORS : op.credentials === 'signed' ? SIGNED_ERRORS : COMMON_ERRORS;
  const codes: ErrorCode[] = [...common, ...(op.errors ?? [])];
  // Declared on the operation, enforced by route(): the document says so without each operation repeating it.
  if (op.sudo) codes.push('reauthentication_required');
  if (Array.isArray(op.credentials) && op.scope !== 'none') codes.push('two_factor_required');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    if (code === 'forbidden_origin' && Array.isArray(op.credentials) && !op.credentials.includes('session')) continue;
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `Error: ${list.map((c) => `\`${c}\``).join(', ')}.`,
        content: { 'application/json': { schema: family.errorSchema } },
      },
    ]),
  );
}

const operationId = (summary: string) =>
  summary
    .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))
    .replace(/^./, (c) => c.toLowerCase());

function security(op: Operation, family: Family) {
  if (op.credentials === 'public') return [];
  if (op.credentials === 'signed') return [{ secretScanningSignature: [] }];
  return op.credentials.flatMap((kind) => family.schemesOf[kind].map((scheme) => ({ [scheme]: [] })));
}

const code = (p: string) => `\`${p}\``;
const acceptsKeys = (op: Operation) =>
  op.credentials !== 'public' && op.credentials !== 'signed' && op.credentials.includes('api_key');

/**
 * What a key restricted by permissions or projects gets at the operation, for tools (`x-access.restrictedKeys`):
 * `named` (it passes when it names one of `permissions`, at the path's project), `refused` (403
 * `key_scope_insufficient`), `allowed` (a door every key keeps), `own-key` (on the calling key itself, or anyone's
 * when it names one of `permissions`), `not-accepted` (no API key at all).
 */
function restrictedKeysAt(op: Operation): string {
  if (!acceptsKeys(op)) return 'not-accepted';
  if (!op.self) return 'named';
  if (op.self.restrictedKeys === 'always') return 'allowed';
  if (op.self.restrictedKeys) return 'own-key';
  return op.self.orPermission ? 'named' : 'refused';
}

function accessOf(op: Operation) {
  const permissions = op.permission ? [op.permission] : (op.anyPermission ?? [op.self?.orPermission].filter(Boolean));
  const needs = op.permission ? 'permission' : op.anyPermission ? 'any-permission' : 'self';
  return { needs, permissions, restrictedKeys: restrictedKeysAt(op) };
}

function needsText(op: Operation): string | undefined {
  if (op.credentials === 'public' || op.credentials === 'signed') return undefined;
  if (op.permission) return `Permission: ${code(op.permission)}; a restricted key must name it.`;
  if (op.anyPermission)
    return `Permission: any of ${op.anyPermission.map(code).join(', ')}, as the request decides; a restricted key must name that one.`;
  const self = op.self!;
  const everyone = self.orPermission ? ` With ${code(self.orPermission)}, everyone's, not only the caller's.` : '';
  if (!acceptsKeys(op)) return `Needs no permission: it acts on the caller's own account.${everyone}`;
  if (self.restrictedKeys === 'always')
    return "Needs no permission: it acts on the caller's own account, and every API key may call it, restricted or not.";
  const refused = self.orPermission
    ? `A key restricted by permissions or projects gets 403 \`key_scope_insufficient\` unless it names ${code(self.orPermission)}`
    : 'A key restricted by permissions or projects gets 403 `key_scope_insufficient`';
  const own = typeof self.restrictedKeys === 'object' ? ', except on itself: a key may always revoke itself' : '';
  return `Needs no permission: it acts on the caller's own things.${everyone} ${refused}${own}.`;
}

/** JSON, and each declared format that has a media type of its own (CloudEvents' structured and batched modes). */
function requestContent(op: Operation, body: z.ZodType) {
  const formats = (op.bodyFormats ?? []).flatMap((f) => (f.documented ? [f.documented] : []));
  return {
    'application/json': { schema: body },
    ...Object.fromEntries(formats.map(({ mediaType, schema }) => [mediaType, { schema }])),
  };
}

function documentOperation(op: Operation, family: Family): ZodOpenApiOperationObject {
  return {
    operationId: operationId(op.summary),
    summary: op.summary,
    description:
      [
        op.description,
        needsText(op),
        op.sudo
          ? 'Sudo: a console session must have authenticated within `SUDO_WINDOW_SECONDS`, else 403 `reauthentication_required` (bearer credentials are not asked).'
          : undefined,
        op.scope === 'none' ? undefined : `Tenant: the ${op.scope} in the path; one the caller is not in is 404.`,
      ]
        .filter(Boolean)
        .join('\n\n') || undefined,
    tags: op.tags,
    security: security(op, family),
    'x-tenant-scope': op.scope,
    ...(op.credentials === 'public' || op.credentials === 'signed' ? {} : { 'x-access': accessOf(op) }),
    // zod-openapi reads every key it is given, so absent schemas must be absent keys.
    requestParams: Object.fromEntries(
      Object.entries({ path: op.params, query: op.query, header: op.headers }).filter(
        ([, schema]) => schema !== undefined,
      ),
    ) as ZodOpenApiOperationObject['requestParams'],
    requestBody: op.body ? { required: !bodyIsOptional(op.body), content: requestContent(op, op.body) } : undefined,
    responses: {
      [String(op.success.status)]: {
        description: op.success.description,
        content: op.success.schema ? { 'application/json': { schema: op.success.schema } } : undefined,
      },
      ...errorResponses(op, family),
    },
  };
}

/** One document: the conventions the linters hold every operation to (tags declared, servers, license, contact). */
export function buildDocument(operations: Operation[], family: Family) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations)
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: documentOperation(op, family) };
  const used = [...new Set(operations.flatMap((op) => op.tags))];
  return createDocument({
    openapi: '3.1.0',
    info: {
      ...family.info,
      version: '1',
      contact: { name: 'svc-console maintainers' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: '{origin}',
        description: "The console's public origin (`NEXTAUTH_URL`); the API is served from the same origin.",
        variables: { origin: { default: 'http://localhost:3000', description: 'Scheme, host and port.' } },
      },
    ],
    tags: used.map((name) => ({ name, description: OPENAPI_TAGS[name] ?? name })),
    components: { securitySchemes: family.securitySchemes },
    paths,
  });
}

export const apiKeyScheme = {
  type: 'http',
  scheme: 'bearer',
  description: 'An API key: `Authorization: Bearer svc_…`.',
} as const;
export const oauthScheme = {
  type: 'http',
  scheme: 'bearer',
  description: 'An OAuth access token from the device login (`svc login`).',
} as const;

const V1: Family = {
  info: {
    title: 'Service API',
    description:
      'API keys, queue subscriptions and alert silences. Every error answers `{ error: { code, message, issues?, quota? } }`.',
  },
  errorSchema: errorEnvelope,
  schemesOf: { session: ['session'], api_key: ['apiKey'], oauth: ['oauth'] },
  securitySchemes: {
    apiKey: apiKeyScheme,
    oauth: oauthScheme,
    secretScanningSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'Secret-Scanning-Signature',
      description:
        'ECDSA P-256/SHA-256 over the raw body, base64 DER, with `Secret-Scanning-Key-Identifier` naming a key of `SECRET_SCANNING_PUBLIC_KEYS`.',
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: 'next-auth.session-token',
      description: "The console's session cookie.",
    },
  },
};

export const buildOpenApiDocument = (operations: Operation[]) => buildDocument(operations, V1);
