import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import { bot, botParams } from './schema';

export const listBotsOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/bots',
  summary: "List an organization's bots",
  description: 'Every member may list the bots of the organization (to choose an API key owner).',
  tags: ['Organizations'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  permission: 'bots.list',
  params: orgParams,
  query: pageQuery,
  success: { status: 200, description: 'A page of bots.', schema: pageOf(bot) },
  errors: ['invalid_cursor'],
});

export const deleteBotOp = defineOperation({
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/bots/{botId}',
  summary: 'Delete a bot',
  description:
    'In one transaction: the bot (kept as deleted), its policy bindings, and every key it owns (revoked, reason `bot_deleted`).',
  tags: ['Bots'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: botParams,
  permission: 'bots.delete',
  success: { status: 204, description: 'Deleted; its keys stop working at once.' },
});

export const botOperations = [listBotsOp, deleteBotOp];
