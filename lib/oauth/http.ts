import type { NextRequest } from 'next/server';
import { ApiError, notFound } from '../errors';
import { decodeForm } from '../http/form';
import type { Protocol } from '../http/request';
import { auditContext } from '../audit/source';
import type { AuditContext } from '../db/audit-types';
import { clientAddressOnly } from '../pipeline/credentials';
import { pipeline } from '../pipeline/pipeline';
import type { RawBody } from '../pipeline/request-input';
import { OAuthError } from './service';

const FORM_LIMIT_BYTES = 8 * 1024;

/** RFC 6749 §5.1: token answers must never be cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthJson(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

/** RFC 6749 §5.2 answers: `{error, error_description}`, 401 for client authentication failures, 400 for the rest. */
const oauthProtocol: Protocol = {
  name: 'oauth',
  known: (err) => {
    if (err instanceof OAuthError)
      return oauthJson({ error: err.code, error_description: err.message }, err.code === 'invalid_client' ? 401 : 400);
    if (err instanceof ApiError && err.code === 'invalid_request')
      return oauthJson({ error: 'invalid_request', error_description: err.message }, 400);
    if (err instanceof ApiError && err.code === 'payload_too_large')
      return oauthJson({ error: 'invalid_request', error_description: err.message }, 413);
    if (err instanceof ApiError && err.code === 'too_many_requests')
      return oauthJson({ error: 'too_many_requests', error_description: err.message }, 429, err.headers);
    return null;
  },
  failure: (failure, requestId) =>
    failure === 'unavailable'
      ? oauthJson({ error: 'temporarily_unavailable', error_description: 'Retry after the time in Retry-After.' }, 503)
      : oauthJson(
          { error: 'server_error', error_description: `Internal error; the server log has it under ${requestId}.` },
          500,
        ),
};

/** The 400 step of an OAuth request: a form-encoded body, every parameter storable text. */
function oauthForm(req: NextRequest, raw: RawBody): URLSearchParams {
  const type = req.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'The request body must be application/x-www-form-urlencoded.');
  }
  const { params: form, issues } = decodeForm(raw.text ?? '');
  if (issues.length > 0) throw new OAuthError('invalid_request', `Parameter "${issues[0].path}": ${issues[0].message}`);
  return form;
}

/**
 * The OAuth endpoints (outside /v1): the pipeline with no credential, rate-limited per client address, form-encoded
 * requests answered in RFC 6749's format.
 */
export function oauthEndpoint(
  name: string,
  handler: (form: URLSearchParams, context: AuditContext) => Promise<{ body: unknown; status?: number }>,
) {
  return pipeline(
    {
      protocol: { ...oauthProtocol, name: `oauth ${name}` },
      credential: clientAddressOnly('oauth'),
      operation: { maxBodyBytes: FORM_LIMIT_BYTES },
      input: oauthForm,
    },
    (req) => ({ method: req.method, route: req.nextUrl.pathname }),
    async ({ requestId, input }, req) => {
      const { body, status } = await handler(input as URLSearchParams, auditContext(req, requestId));
      return oauthJson(body, status ?? 200);
    },
  );
}

export const deviceCodeGone = () =>
  notFound('This code is unknown, has expired or was already used. Run svc login again to get a new one.');
