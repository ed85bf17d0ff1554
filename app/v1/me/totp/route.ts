import { otherMethods } from '@/lib/pipeline/methods';
import { json, noContent, route } from '@/lib/pipeline/route';
import { disableTotpOp, startTotpOp } from '@/lib/second-factor/operations';
import { userForSecondFactor } from '@/lib/second-factor/service';
import { disableTotp, startTotpEnrolment } from '@/lib/second-factor/totp-service';
import { notFound } from '@/lib/errors';

export const POST = route(startTotpOp, async ({ principal }) => {
  const user = await userForSecondFactor(principal.id);
  if (!user) throw notFound();
  return json(await startTotpEnrolment(principal, user.email), { status: 201 });
});

export const DELETE = route(disableTotpOp, async ({ principal, audit }) => {
  await disableTotp(principal, audit);
  return noContent();
});

export const { GET, PUT, PATCH } = otherMethods(startTotpOp, disableTotpOp);
