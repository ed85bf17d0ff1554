import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import { auditContext } from '../audit/source';
import type { AuditContext } from '../db/audit-types';
import type { Principal } from '../auth/principal';
import { optionalCredential } from './credentials';
import type { Operation } from './operation';
import { pipeline } from './pipeline';
import { labelOf, v1 } from './route';

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

/**
 * Public operations that take input (the first setup, an invitation's token): the pipeline with an optional
 * credential (none at all is fine; one that does not check out is 401), limited per caller or else per client
 * address, and the /v1 envelope.
 */
export function openRoute<P extends AnyZod | undefined, B extends AnyZod | undefined>(
  config: Operation<P, undefined, B, undefined> & { credentials: 'public' },
  handler: (ctx: OpenContext<P, B>) => Promise<Response>,
) {
  return pipeline(
    { protocol: v1, credential: optionalCredential('open'), operation: config as Partial<Operation> },
    (req) => labelOf(req, config),
    ({ requestId, caller, params, body }, req) =>
      handler({
        req,
        requestId,
        params: (config.params ? params : undefined) as Out<P>,
        body: body as Out<B>,
        caller,
        context: auditContext(req, requestId),
      }),
  );
}
