import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import { auditContext, secretScannerActor } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { MAX_BODY_BYTES, readBody } from '../http/body';
import { ApiError, invalidRequest } from '../errors';
import { parseJsonBody } from '../http/json-body';
import { validateInput } from '../http/validate';
import type { Operation } from '../pipeline/operation';
import { apiLimiter } from '../http/rate-limit';
import { json, labelOf, serveV1 } from '../pipeline/route';
import { signatureHeaders, trustedKeys, verifyReportSignature } from './signature';

type SignedContext<B> = { body: B; source: AuditSource };

/**
 * Routes a partner calls with a signed body instead of a credential: the /v1 skeleton and envelope, then
 * 413 → 401 (no signature, unknown key id, or a signature that does not verify over the raw body) → 429 per
 * signing key → 400 (JSON and the operation's schema) → the handler.
 */
export function signedRoute<B extends z.ZodType>(
  config: Operation<undefined, undefined, B, undefined> & { credentials: 'signed' },
  handler: (ctx: SignedContext<z.output<B>>) => Promise<unknown>,
) {
  return (req: NextRequest): Promise<Response> =>
    serveV1(
      async (requestId) => {
        const text = (await readBody(req, config.maxBodyBytes ?? MAX_BODY_BYTES)) ?? '';
        const { keyId, signature } = signatureHeaders(req.headers);
        // The body arrived as UTF-8 JSON; its bytes are what the partner signed (invalid UTF-8 simply fails).
        if (!verifyReportSignature(Buffer.from(text, 'utf8'), keyId, signature, trustedKeys()))
          throw new ApiError('unauthenticated', 'A valid Secret-Scanning-Signature over the body is required.');
        const retryAfter = await apiLimiter.consume(`secret-scanning:${keyId}`);
        if (retryAfter !== null)
          throw new ApiError('too_many_requests', undefined, { headers: { 'retry-after': String(retryAfter) } });
        // The rules every /v1 body shares (storable text, no __proto__), then the operation's schema.
        const parsed = validateInput(config.body as B, parseJsonBody(text, config.body as B));
        if (!parsed.success) throw invalidRequest(parsed.issues);
        const source = {
          actor: secretScannerActor(`Secret scanning (${keyId})`),
          context: auditContext(req, requestId),
        };
        return json(await handler({ body: parsed.data, source }), { status: config.success.status });
      },
      labelOf(req, config),
    );
}
