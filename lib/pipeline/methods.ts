import type { NextRequest } from 'next/server';
import { API_REFERENCE_PATH } from '../api-reference';
import { ApiError, notFound } from '../errors';
import { defineOperation, type Operation } from './operation';
import { publicRoute } from './route';

/** Not in the document: the answer for a method or path that no operation has, before any credential. */
const anyPathOp = defineOperation({
  method: 'GET',
  path: '/v1/{path}',
  summary: 'Any method or path no operation has',
  tags: ['Service'],
  scope: 'none',
  credentials: 'public',
  success: { status: 404, description: 'Not found.' },
});

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof HTTP_METHODS)[number];
type Handlers = Record<Method, (req: NextRequest) => Promise<Response>>;

/** The methods a path answers, from its operations (HEAD and OPTIONS come with them from Next). */
export function allowHeader(operations: readonly Pick<Operation, 'method'>[]): string {
  const methods = new Set<string>(operations.map((op) => op.method));
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].join(', ');
}

/**
 * 405 `method_not_allowed` handlers for a route file's other methods, with `Allow` derived from the
 * operations it exports, so `/v1` never answers Next's empty 405:
 * `export const { POST, PUT, DELETE } = otherMethods(getSilenceOp, updateSilenceOp);`
 */
export function otherMethods(...operations: Pick<Operation, 'method'>[]): Handlers {
  const allow = allowHeader(operations);
  const refuse = publicRoute(anyPathOp, async (ctx) => {
    throw new ApiError('method_not_allowed', `${ctx.req.method} is not allowed here; this path takes ${allow}.`, {
      headers: { allow },
    });
  });
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, refuse])) as Handlers;
}

/** What a 404 for a path no operation has says: where every operation is listed, for a program and a person. */
export const unknownPathMessage = (pathname: string) =>
  `No API operation at ${pathname}; GET /v1/openapi.json lists them, and the console shows them at ${API_REFERENCE_PATH}.`;

/** Every method of a path no route knows: 404 `not_found` in the envelope, never an HTML page. */
export function unknownPath(): Handlers {
  const answer = publicRoute(anyPathOp, async (ctx) => {
    throw notFound(unknownPathMessage(ctx.req.nextUrl.pathname));
  });
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, answer])) as Handlers;
}
