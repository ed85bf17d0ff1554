import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import { ApiError, invalidRequest, notFound } from '../errors';
import { MAX_BODY_BYTES, readBody } from '../http/body';
import { parseJsonBody } from '../http/json-body';
import { validateInput } from '../http/validate';
import { checkOrigin } from '../http/origin';
import { clientAddress } from '../http/public-origin';
import { anonymousLimiter } from '../http/rate-limit';
import { auditContext } from '../audit/source';
import type { AuditContext } from '../db/audit-types';
import type { Principal } from '../auth/principal';
import { optionalCaller } from './authenticate';
import type { Operation } from './operation';
import { labelOf, serveV1 } from './route';

type AnyZod = z.ZodType;
type Out<S> = S extends AnyZod ? z.output<S> : undefined;

export type OpenContext<P, B> = {
  req: NextRequest;
  requestId: string;
  params: Out<P>;
  body: Out<B>;
  /** The signed-in caller when the request carries a credential that checks out; null when it carries none. */
  caller: Principal | null;
  /** The request's part of an audit event; the actor is whoever the handler establishes. */
  context: AuditContext;
};

type NextParams = { params: Promise<Record<string, string>> };

/**
 * Public operations that take input (the first setup, an invitation's token): the /v1 skeleton and envelope, then
 * 413 → 401 (a credential that does not check out; none at all is fine) → 429 per client address (or per caller)
 * → 403 forbidden_origin (a cookie's write) → 404 (a malformed path parameter) → 400 (the body) → the handler.
 */
export function openRoute<P extends AnyZod | undefined, B extends AnyZod | undefined>(
  config: Operation<P, undefined, B, undefined> & { credentials: 'public' },
  handler: (ctx: OpenContext<P, B>) => Promise<Response>,
) {
  return (req: NextRequest, next: NextParams): Promise<Response> =>
    serveV1(
      async (requestId) => {
        const text = await readBody(req, config.maxBodyBytes ?? MAX_BODY_BYTES);
        const admitted = await optionalCaller(req);
        const retryAfter = admitted
          ? admitted.retryAfter
          : await anonymousLimiter.consume(`open:${clientAddress(req.headers)}`);
        if (retryAfter !== null)
          throw new ApiError('too_many_requests', undefined, { headers: { 'retry-after': String(retryAfter) } });
        if (admitted?.principal.via === 'session') checkOrigin(req);
        const raw = next?.params ? await next.params : {};
        const params = config.params ? config.params.safeParse(raw) : { success: true as const, data: undefined };
        if (!params.success) throw notFound();
        let body: unknown;
        if (config.body) {
          const parsed = validateInput(config.body, parseJsonBody(text, config.body));
          if (!parsed.success) throw invalidRequest(parsed.issues);
          body = parsed.data;
        }
        return handler({
          req,
          requestId,
          params: params.data as Out<P>,
          body: body as Out<B>,
          caller: admitted?.principal ?? null,
          context: auditContext(req, requestId),
        });
      },
      labelOf(req, config),
    );
}
