import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import { ApiError, invalidRequest } from '../errors';
import { decodeUtf8, readBodyBytes, MAX_BODY_BYTES } from '../http/body';
import { parseJsonBody } from '../http/json-body';
import { validateInput, validateQuery } from '../http/validate';
import { formatOf, validateFormatBody, type BodyFormat } from './body-format';
import type { Operation } from './operation';

type AnyZod = z.ZodType;

/** What the pipeline declares of a request's input: the operation's schemas, or none for a door that has none. */
export type DeclaredInput = Partial<
  Pick<Operation, 'params' | 'query' | 'headers' | 'body' | 'bodyFormats' | 'maxBodyBytes' | 'rawBody'>
>;

/** The body as it arrived: its bytes, its text (a declared format decodes its own bytes: none), and that format. */
export type RawBody = { bytes: Buffer | null; text: string | null; format: BodyFormat | undefined };

/**
 * The 413 step. `declared-length` trusts Content-Length alone and leaves the stream to the handler (a public
 * route that reads its own body); otherwise the bytes are read up to the limit, and a JSON body must be UTF-8.
 */
export async function readRequestBody(
  req: NextRequest,
  input: DeclaredInput,
  mode: 'read' | 'declared-length' = 'read',
): Promise<RawBody> {
  const limit = input.maxBodyBytes ?? MAX_BODY_BYTES;
  const format = formatOf(input.bodyFormats, req.headers);
  if (mode === 'declared-length') {
    if (Number(req.headers.get('content-length') ?? 0) > limit) throw new ApiError('payload_too_large');
    return { bytes: null, text: null, format };
  }
  const bytes = await readBodyBytes(req, limit);
  // A declared format decodes its own bytes (binary data need not be text); a JSON body is UTF-8 first.
  return { bytes, text: format ? null : bytes && decodeUtf8(bytes), format };
}

/** The header names an operation declares, read once per route rather than on every request. */
export function declaredHeaders(schema: AnyZod | undefined): string[] {
  return schema && 'shape' in schema ? Object.keys((schema as unknown as z.ZodObject).shape) : [];
}

/** The operation's declared request headers, by their canonical names, so issues name the header (`If-Match`). */
function headerObject(req: NextRequest, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = req.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

export type ValidInput = { query: unknown; headers: unknown; body: unknown };

/**
 * The 400 step: the query first, then the headers and the body together, every issue at its path. `query: false`
 * leaves a declared query to the handler (Alertmanager's, which answers in its own words); a `rawBody` operation
 * reads its body itself.
 */
export function validateRequest(
  req: NextRequest,
  input: DeclaredInput,
  raw: RawBody,
  options: { headerNames: string[]; query: boolean },
): ValidInput {
  const query =
    input.query && options.query
      ? validateQuery(input.query, req.nextUrl.search)
      : { success: true as const, data: undefined };
  if (!query.success) throw invalidRequest(query.issues);
  const headers = input.headers ? validateInput(input.headers, headerObject(req, options.headerNames)) : undefined;
  const issues = headers?.issues ?? [];
  let body: unknown;
  // A format is chosen by headers: with a header refused, its body would be read under the wrong rules.
  if (input.body && !input.rawBody && !(raw.format && issues.length > 0)) {
    const parsed = raw.format
      ? validateFormatBody(raw.format, input.body, raw.bytes, req.headers)
      : validateInput(input.body, parseJsonBody(raw.text, input.body));
    if (!parsed.success) issues.push(...parsed.issues);
    else body = parsed.data;
  }
  if (issues.length > 0) throw invalidRequest(issues);
  return { query: query.data, headers: headers?.success ? headers.data : undefined, body };
}
