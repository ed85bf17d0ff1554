import { otherMethods } from '@/lib/pipeline/methods';
import { notFound } from '@/lib/errors';
import { json, route } from '@/lib/pipeline/route';
import { passkeyOptionsOp } from '@/lib/second-factor/operations';
import { passkeyCreationOptions } from '@/lib/second-factor/passkey-service';
import { userForSecondFactor } from '@/lib/second-factor/service';

export const POST = route(passkeyOptionsOp, async ({ principal }) => {
  const user = await userForSecondFactor(principal.id);
  if (!user) throw notFound();
  return json(await passkeyCreationOptions(principal, user.email));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(passkeyOptionsOp);
