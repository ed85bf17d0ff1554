import { z } from 'zod';
import { uuidIdParam } from '../short-ids';
import { policyBinding, policyList } from '../access/schema';
import { atMostCharacters } from '../characters';

export const botParams = z.object({ orgId: z.uuid(), botId: uuidIdParam('bot') });

export const bot = z
  .object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime(), policies: z.array(policyBinding) })
  .meta({ id: 'Bot' });

export type Bot = z.infer<typeof bot>;

export const createBotBody = z
  .strictObject({
    name: atMostCharacters(z.string().trim().min(1, 'Enter a name.'), 100, 'Use at most 100 characters.'),
    policies: policyList,
  })
  .meta({ id: 'CreateBot' });
export type CreateBotBody = z.infer<typeof createBotBody>;

export const botPoliciesBody = z.strictObject({ policies: policyList }).meta({ id: 'BotPolicies' });
export type BotPoliciesBody = z.infer<typeof botPoliciesBody>;
