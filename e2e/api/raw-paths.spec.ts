import fc from 'fast-check';
import { expect, test } from '../fixtures';
import { FUZZ } from '../support/bad-input-outside';

// An API path whose percent-escapes are not UTF-8 is one Next cannot decode: left to Next it is a bare 500.
// proxy.ts answers it 404 in the protocol's own format, and runs for API paths only when they hold a `%`
// (lib/http/raw-url.ts). Generated: every class of bad escape, anywhere in a path of each protocol, by method.

/** Escapes no UTF-8 decoder accepts: lone and stray bytes, overlong, surrogate, truncated, past U+10FFFF, not hex. */
const badEscape = fc.constantFrom(
  '%FF',
  '%80',
  '%BF',
  '%C0%AF',
  '%C3',
  '%E2%82',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%F8%88%80%80%80',
  '%',
  '%zz',
  '%4',
  '%E2%82%',
);
const segment = fc.stringMatching(/^[a-z0-9-]{0,12}$/);
// Text after an escape starts with no hex digit, which could complete it (`%E2%82%` + `a0` is `₠`).
const tail = fc.stringMatching(/^([g-z-][a-z0-9-]{0,11})?$/);

/** Each protocol's prefixes, and how its refusal reads. */
const protocols = [
  {
    prefixes: ['/v1/', '/v1/organizations/', '/v1/organizations/x/projects/y/obs/silences/', '/v1/health/'],
    message: (body: Record<string, unknown>) => (body.error as { code: string; message: string }).message,
    code: (body: Record<string, unknown>) => (body.error as { code: string }).code,
    expectedCode: 'not_found',
  },
  {
    prefixes: ['/scim/', '/scim/v2/Users/'],
    message: (body: Record<string, unknown>) => body.detail as string,
    code: (body: Record<string, unknown>) => body.status as string,
    expectedCode: '404',
  },
  {
    prefixes: ['/oauth/', '/oauth/token/', '/oauth/device/'],
    message: (body: Record<string, unknown>) => body.error_description as string,
    code: (body: Record<string, unknown>) => body.error as string,
    expectedCode: 'invalid_request',
  },
];

test('API paths with percent-escapes that are not UTF-8 are 404 in the protocol’s format, never 500', async ({
  request,
}) => {
  test.setTimeout(60_000);
  const arb = fc.record({
    protocol: fc.integer({ min: 0, max: protocols.length - 1 }),
    prefix: fc.nat(),
    before: segment,
    escape: badEscape,
    after: tail,
    method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'),
  });
  await fc.assert(
    fc.asyncProperty(arb, async ({ protocol, prefix, before, escape, after, method }) => {
      const { prefixes, message, code, expectedCode } = protocols[protocol];
      const path = `${prefixes[prefix % prefixes.length]}${before}${escape}${after}`;
      const res = await request.fetch(path, {
        method,
        ...(method === 'GET' || method === 'DELETE' ? {} : { data: { comment: 'x' } }),
      });
      const label = `${method} ${path}`;
      expect(res.status(), label).toBe(404);
      expect(res.headers()['cache-control'], label).toBe('no-store');
      expect(res.headers()['x-request-id'], label).toMatch(/^req_[0-9a-f]{24}$/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(code(body), label).toBe(expectedCode);
      expect(message(body), label).toBe('No resource at this path: its percent-escapes are not UTF-8.');
    }),
    { seed: FUZZ.seed, numRuns: Math.max(60, FUZZ.outsideRuns * 2) },
  );
});

test('valid percent-escapes in an API path reach the route; console pages keep the proxy’s CSP', async ({
  request,
}) => {
  // A decodable escape is the app's to answer: the /v1 catch-all's 404, not the proxy's.
  const escaped = await request.get('/v1/no%20such%C3%A9thing');
  expect(escaped.status()).toBe(404);
  expect(((await escaped.json()) as { error: { message: string } }).error.message).toMatch(/^No API operation at /);
  // The narrower API matcher left console pages to proxy.ts (their CSP nonce); API answers carry none.
  const page = await request.get('/login');
  expect(page.headers()['content-security-policy']).toMatch(/'nonce-/);
  const live = await request.get('/v1/health/live');
  expect(live.headers()['content-security-policy']).toBeUndefined();
});
