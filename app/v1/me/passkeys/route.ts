import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { addPasskeyOp } from '@/lib/second-factor/operations';
import { addPasskey } from '@/lib/second-factor/passkey-service';

export const POST = route(addPasskeyOp, async ({ principal, body, audit }) =>
  json(await addPasskey(principal, body.name, body.response, audit), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(addPasskeyOp);
