import { bodyIsOptional } from './json-body';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_CODES, errorEnvelope, type ErrorCode } from './errors';
import type { CredentialKind, Operation } from './operation';

/** The security scheme of the document that each credential kind is. */
const SECURITY_SCHEME: Record<CredentialKind, string> = { session: 'session', api_key: 'apiKey', oauth: 'oauth' };

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

function errorResponses(op: Operation) {
  const common =
    op.credentials === 'public'
      ? ['internal_error' as const]
      : op.credentials === 'signed'
        ? SIGNED_ERRORS
        : COMMON_ERRORS;
  const codes: ErrorCode[] = [...common, ...(op.errors ?? [])];
  // Declared on the operation, enforced by route(): the document says so without each operation repeating it.
  if (op.sudo) codes.push('reauthentication_required');
  if (Array.isArray(op.credentials) && op.scope !== 'none') codes.push('two_factor_required');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `Error: ${list.map((c) => `\`${c}\``).join(', ')}.`,
        content: { 'application/json': { schema: errorEnvelope } },
      },
    ]),
  );
}

export function buildOpenApiDocument(operations: Operation[]) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const operation: ZodOpenApiOperationObject = {
      operationId: op.summary
        .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))
        .replace(/^./, (c) => c.toLowerCase()),
      summary: op.summary,
      description:
        [
          op.description,
          op.permission ? `Permission: \`${op.permission}\`.` : undefined,
          op.sudo
            ? 'Sudo: a console session must have authenticated within `SUDO_WINDOW_SECONDS`, else 403 `reauthentication_required` (bearer credentials are not asked).'
            : undefined,
          op.scope === 'none' ? undefined : `Tenant: the ${op.scope} in the path; one the caller is not in is 404.`,
        ]
          .filter(Boolean)
          .join('\n\n') || undefined,
      tags: op.tags,
      security:
        op.credentials === 'public'
          ? []
          : op.credentials === 'signed'
            ? [{ secretScanningSignature: [] }]
            : op.credentials.map((kind) => ({ [SECURITY_SCHEME[kind]]: [] })),
      'x-tenant-scope': op.scope,
      // zod-openapi reads every key it is given, so absent schemas must be absent keys.
      requestParams: Object.fromEntries(
        Object.entries({ path: op.params, query: op.query, header: op.headers }).filter(
          ([, schema]) => schema !== undefined,
        ),
      ) as ZodOpenApiOperationObject['requestParams'],
      requestBody: op.body
        ? { required: !bodyIsOptional(op.body), content: { 'application/json': { schema: op.body } } }
        : undefined,
      responses: {
        [String(op.success.status)]: {
          description: op.success.description,
          content: op.success.schema ? { 'application/json': { schema: op.success.schema } } : undefined,
        },
        ...errorResponses(op),
      },
    };
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: operation };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Service API',
      version: '1',
      description:
        'API keys, queue subscriptions and alert silences. Every error answers `{ error: { code, message, issues?, quota? } }`.',
    },
    security: [{ apiKey: [] }, { oauth: [] }, { session: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer svc_…`.' },
        oauth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An OAuth access token from the device login (`svc login`).',
        },
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
    },
    paths,
  });
}
