import { json, route } from '@/lib/pipeline/route';
import { createBotOp, listBotsOp } from '@/lib/bots/operations';
import { listBots } from '@/lib/bots/service';
import { createBot } from '@/lib/bots/create-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listBotsOp, async ({ params, query }) => json(await listBots(params.orgId, query)));

export const POST = route(createBotOp, async ({ params, body, principal, audit }) =>
  json(await createBot(params.orgId, body, principal, audit), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods(listBotsOp, createBotOp);
