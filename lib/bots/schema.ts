import { z } from 'zod';
import { policyBinding } from '../access/schema';

export const botParams = z.object({ orgId: z.uuid(), botId: z.uuid() });

export const bot = z
  .object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime(), policies: z.array(policyBinding) })
  .meta({ id: 'Bot' });

export type Bot = z.infer<typeof bot>;
