import type { z } from 'zod';
import { auditContext, secretScannerActor } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { ApiError } from '../errors';
import type { Operation } from '../pipeline/operation';
import type { CredentialSource } from '../pipeline/credentials';
import { pipeline } from '../pipeline/pipeline';
import { apiLimiter } from '../http/rate-limit';
import { json, labelOf, v1 } from '../pipeline/route';
import { signatureHeaders, trustedKeys, verifyReportSignature } from './signature';

type SignedContext<B> = { body: B; source: AuditSource };

/** A signature over the raw body by a trusted key (401 otherwise), limited per signing key. */
const signature: CredentialSource<string | null> = async (req, raw) => {
  const { keyId, signature } = signatureHeaders(req.headers);
  // The body arrived as UTF-8 JSON; its bytes are what the partner signed (invalid UTF-8 simply fails).
  if (!verifyReportSignature(Buffer.from(raw.text ?? '', 'utf8'), keyId, signature, trustedKeys()))
    throw new ApiError('unauthenticated', 'A valid Secret-Scanning-Signature over the body is required.');
  return { caller: keyId, principal: null, retryAfter: await apiLimiter.consume(`secret-scanning:${keyId}`) };
};

/** Routes a partner calls with a signed body instead of a credential: the pipeline with a signature as the credential. */
export function signedRoute<B extends z.ZodType>(
  config: Operation<undefined, undefined, B, undefined> & { credentials: 'signed' },
  handler: (ctx: SignedContext<z.output<B>>) => Promise<unknown>,
) {
  return pipeline(
    { protocol: v1, credential: signature, operation: config as Partial<Operation> },
    (req) => labelOf(req, config),
    async ({ requestId, caller: keyId, body }, req) => {
      const source = {
        actor: secretScannerActor(`Secret scanning (${keyId})`),
        context: auditContext(req, requestId),
      };
      return json(await handler({ body: body as z.output<B>, source }), { status: config.success.status });
    },
  );
}
