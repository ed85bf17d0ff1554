import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import { bot, botParams, botPoliciesBody, createBotBody } from './schema';

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

export const createBotOp = defineOperation({
  method: 'POST',
  path: '/v1/organizations/{orgId}/bots',
  summary: 'Create a bot',
  description:
    'A bot with its policies. A policy the caller does not hold at that scope, an unknown policy or a project of ' +
    'another organization: 400 at its path. A live bot of the organization has the name already: 409 ' +
    '`bot_name_taken`. Audit `bot.created`.',
  tags: ['Bots'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  body: createBotBody,
  permission: 'bots.create',
  success: { status: 201, description: 'The bot.', schema: bot },
  errors: ['bot_name_taken'],
});

export const setBotPoliciesOp = defineOperation({
  method: 'PUT',
  path: '/v1/organizations/{orgId}/bots/{botId}/policies',
  summary: "Replace a bot's policies",
  description:
    'Replaces every binding of the bot, with the checks of bot creation (400 at the path of what may not be given; ' +
    'bindings the bot keeps are not given again). Its keys feel the change on their next request. Audit ' +
    '`bot.policies_changed` with before and after.',
  tags: ['Bots'],
  sudo: true,
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: botParams,
  body: botPoliciesBody,
  permission: 'bots.create',
  success: { status: 200, description: 'The bot with the new policies.', schema: bot },
});

export const botOperations = [listBotsOp, createBotOp, deleteBotOp, setBotPoliciesOp];
