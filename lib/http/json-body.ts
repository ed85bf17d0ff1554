import type { z } from 'zod';
import { invalidRequest } from './errors';

/** Whether an operation's body schema lets the client send no body at all (`schema.optional()`). */
export const bodyIsOptional = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

/**
 * The JSON value of a request body (already strict UTF-8, see readBody): 400 at path "" when it is not
 * JSON, or when it is missing and the schema requires one. A missing optional body is `undefined`.
 */
export function parseJsonBody(text: string | null, schema: z.ZodType): unknown {
  if (text === null || text.trim() === '') {
    if (bodyIsOptional(schema)) return undefined;
    throw invalidRequest([{ path: '', message: 'A JSON request body is required.' }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest([{ path: '', message: 'The request body is not valid JSON.' }]);
  }
}
