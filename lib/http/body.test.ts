import { describe, expect, it } from 'vitest';
import { decodeUtf8, readBody } from './body';
import { ApiError } from '../errors';

function streamed(chunks: number, size: number) {
  let sent = 0;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      if (sent >= chunks) return controller.close();
      sent++;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
  return {
    request: new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit),
    pulled: () => pulled,
  };
}

describe('request body limit', () => {
  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    const request = new Request('http://x/', { method: 'POST', body: 'x', headers: { 'content-length': '1048577' } });
    await expect(readBody(request, 1_048_576)).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('stops a chunked body as soon as it passes the limit, without reading the rest', async () => {
    const { request, pulled } = streamed(1000, 64 * 1024); // 64 MB offered
    const err = await readBody(request, 1_048_576).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('payload_too_large');
    expect(pulled()).toBeLessThanOrEqual(20);
  });

  it('reads a body of exactly the limit, and treats an empty body as none', async () => {
    const { request } = streamed(16, 64 * 1024);
    expect((await readBody(request, 1_048_576))?.length).toBe(1_048_576);
    expect(await readBody(new Request('http://x/', { method: 'POST', body: '' }), 10)).toBeNull();
  });
});

describe('strict UTF-8', () => {
  it('refuses a truncated sequence, then decodes the next body afresh (one decoder serves every request)', () => {
    const truncated = new Uint8Array([0x61, 0xe2, 0x82]); // "a" and the first two bytes of "€"
    for (let i = 0; i < 3; i++) {
      expect(() => decodeUtf8(truncated)).toThrow(ApiError);
      expect(decodeUtf8(new TextEncoder().encode('€ ok'))).toBe('€ ok');
    }
  });
});
