import type { z } from 'zod';
import type { Issue } from '../errors';
import { uniqueIssues } from '../http/issues';
import { validateInput, type Validated } from '../http/validate';

/** A request read in another format: the value the operation's `body` validates, or what is wrong, at its own paths. */
export type FormatRead = { value: unknown } | { issues: Issue[] };

/**
 * A body an operation takes besides JSON (CloudEvents), declared on the operation: `route()` picks it by the
 * request's headers, reads it into the value the operation's `body` schema validates, and puts that schema's issues
 * back at the request's own paths. The handler gets the body as if it had been sent as JSON.
 */
export type BodyFormat = {
  /** Whether a request is in this format: by its Content-Type, or by other headers alone (CloudEvents' binary mode). */
  matches: (headers: Headers) => boolean;
  /** The media type and schema the OpenAPI document lists beside `application/json`; none for a headers-only format. */
  documented?: { mediaType: string; schema: z.ZodType };
  /** The body's bytes (not yet decoded: binary data need not be text) and headers, as the operation's `body` value. */
  read: (bytes: Buffer | null, headers: Headers) => FormatRead;
  /** Where an issue the `body` schema found (`messages.2.body`) lies in the request as sent (`2`). */
  issuePath: (path: string) => string;
  /** What makes two requests in this format the same one, for Idempotency-Key: the bytes and the headers it reads. */
  requestText: (bytes: Buffer | null, headers: Headers) => string;
};

/** The declared format a request is in, or undefined for plain JSON. */
export const formatOf = (formats: readonly BodyFormat[] | undefined, headers: Headers) =>
  formats?.find((format) => format.matches(headers));

/** A body in a declared format, validated by the operation's schema, every issue at the request's own path. */
export function validateFormatBody(
  format: BodyFormat,
  schema: z.ZodType,
  bytes: Buffer | null,
  headers: Headers,
): Validated<unknown> {
  const read = format.read(bytes, headers);
  if ('issues' in read) return { success: false, issues: read.issues };
  const parsed = validateInput(schema, read.value);
  if (parsed.success) return parsed;
  return {
    success: false,
    issues: uniqueIssues(parsed.issues.map((issue) => ({ ...issue, path: format.issuePath(issue.path) }))),
  };
}
