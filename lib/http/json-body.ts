import type { z } from 'zod';
import { invalidRequest, type Issue } from '../errors';

/** How deeply arrays and objects may nest in a request body: far beyond any schema here, far below the stack. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_MESSAGE = `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`;

/** Whether a parsed body is too deep: is the text of valid JSON nested past `limit`? One pass, no recursion. */
export function nestsDeeperThan(json: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The issue of a body nested past MAX_JSON_DEPTH, or null: every JSON family calls it before walking the value. */
export function depthIssue(json: string): Issue | null {
  return nestsDeeperThan(json) ? { path: '', message: TOO_DEEP_MESSAGE } : null;
}

/** JSON.parse for a request body: 400 at path "" when the text is not JSON or nests past MAX_JSON_DEPTH. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest([{ path: '', message: 'The request body is not valid JSON.' }]);
  }
  assertDepth(text);
  return value;
}

/** 400 at path "" when a request body's JSON text nests past MAX_JSON_DEPTH. */
export function assertDepth(json: string): void {
  const issue = depthIssue(json);
  if (issue) throw invalidRequest([issue]);
}

/** Whether an operation's body schema lets the client send no body at all (`schema.optional()`). */
export const bodyIsOptional = (schema: z.ZodType): boolean => schema.safeParse(undefined).success;

/**
 * The JSON value of a request body (already strict UTF-8, see readBody): 400 at path "" when it is not
 * JSON, nests past MAX_JSON_DEPTH, or is missing and the schema requires one. A missing optional body is
 * `undefined`.
 */
export function parseJsonBody(text: string | null, schema: z.ZodType): unknown {
  if (text === null || text.trim() === '') {
    if (bodyIsOptional(schema)) return undefined;
    throw invalidRequest([{ path: '', message: 'A JSON request body is required.' }]);
  }
  return parseJson(text);
}
