import { otherMethods } from '@/lib/pipeline/methods';
import { noContent, route } from '@/lib/pipeline/route';
import { removePasskeyOp } from '@/lib/second-factor/operations';
import { removePasskey } from '@/lib/second-factor/passkey-service';

export const DELETE = route(removePasskeyOp, async ({ principal, params, audit }) => {
  await removePasskey(principal, params.passkeyId, audit);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(removePasskeyOp);
