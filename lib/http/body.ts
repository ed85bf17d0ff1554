import { ApiError, invalidRequest } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = (limit: number) =>
  new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);

/**
 * Reads the body's bytes, refusing it with 413 as soon as it passes `limit`: at once for a large Content-Length,
 * and mid-stream for a chunked body, without holding more than `limit` bytes. An empty body is null.
 */
export async function readBodyBytes(req: Request, limit: number): Promise<Buffer | null> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!req.body) return null;
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return total === 0 ? null : Buffer.concat(chunks, total);
}

/** Reads the body as strict UTF-8 text (see `readBodyBytes` for the limit). */
export async function readBody(req: Request, limit: number): Promise<string | null> {
  const bytes = await readBodyBytes(req, limit);
  return bytes && decodeUtf8(bytes);
}

/**
 * Strict UTF-8 (RFC 8259 §8.1): a byte FF, an overlong form or an encoded surrogate is 400 at path "",
 * never silently replaced by U+FFFD. A leading byte-order mark is kept, so JSON.parse refuses it too.
 */
// One decoder for every body: decode() without `stream` starts afresh each call, even after a failure.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalidRequest([{ path: '', message: 'The request body is not valid UTF-8.' }]);
  }
}
