import { z } from 'zod';
import { ANY_CREDENTIAL, defineOperation } from '../http/operation';

export const deleteBotOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/bots/{botId}',
  summary: 'Delete a bot',
  description:
    'In one transaction: the bot (kept as deleted), its policy bindings, and every key it owns (revoked, reason `bot_deleted`).',
  tags: ['Bots'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: z.object({ orgId: z.uuid(), botId: z.uuid() }),
  permission: 'bots.delete',
  success: { status: 204, description: 'Deleted; its keys stop working at once.' },
});

export const botOperations = [deleteBotOp];
