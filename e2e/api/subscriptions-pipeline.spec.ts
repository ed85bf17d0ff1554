import http from 'node:http';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { bearer, expect, expectError, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { baseURL } from '../support/env';
import { loadDemoSubs, readSub, subPath, subsPath, type DemoSubs } from '../support/subscriptions';

// The request pipeline on a real write: PATCH a subscription. Every refusal leaves it exactly as it was.
const MiB = 1024 * 1024;

let demo: Demo;
let subs: DemoSubs;
let bob: APIRequestContext;
let bobCookie: string;

test.beforeAll(async () => {
  demo = await loadDemo();
  subs = await loadDemoSubs(demo);
  bob = await sessionFor('bob');
  bobCookie = (await bob.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
});
test.afterAll(async () => bob.dispose());

/** A context with bob's session cookie and no Origin header at all, as a non-browser client would send. */
async function bobWithoutOrigin(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, storageState: await bob.storageState() });
}

/** `{"batchSize":N}` padded with spaces to exactly `size` bytes: valid JSON of a chosen length. */
const paddedBody = (batchSize: number, size: number) => {
  const json = JSON.stringify({ batchSize });
  return json + ' '.repeat(size - json.length);
};

/**
 * Sends a chunked body (no Content-Length) with node:http, in 64 KiB chunks, stopping if the server answers
 * early. Sending just past the limit (not far beyond) lets the server close without resetting unread data.
 */
function sendChunked(
  path: string,
  headers: Record<string, string>,
  text: string,
): Promise<{ status: number; body: string; requestId?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseURL}${path}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, requestId: res.headers['x-request-id'] as string | undefined }),
      );
    });
    // The server may close the connection once it has refused the body; the answer still counts.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const body = Buffer.from(text);
    const totalBytes = body.length;
    const chunkSize = 64 * 1024;
    let sent = 0;
    const pump = () => {
      while (!answered && sent < totalBytes) {
        const chunk = body.subarray(sent, sent + chunkSize);
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

test.describe('body limit (413 before everything else)', () => {
  test('exactly 1 MiB passes; 1 MiB + 1 byte by Content-Length is 413 payload_too_large, nothing changed', async () => {
    const before = await readSub(bob, subs.failing);
    const ok = await bob.patch(subPath(subs.failing), {
      data: paddedBody(before.batchSize, MiB),
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status()).toBe(200);
    const res = await bob.patch(subPath(subs.failing), {
      data: paddedBody(2, MiB + 1),
      headers: { 'content-type': 'application/json' },
    });
    await expectError(res, 413, 'payload_too_large');
    expect(await readSub(bob, subs.failing)).toEqual(before);
  });

  test('a chunked body without Content-Length that grows past 1 MiB is 413, nothing changed; exactly 1 MiB passes', async () => {
    const before = await readSub(bob, subs.failing);
    const fits = await sendChunked(
      subPath(subs.failing),
      { cookie: bobCookie, origin: baseURL },
      paddedBody(before.batchSize, MiB),
    );
    expect(fits.status).toBe(200);
    const res = await sendChunked(
      subPath(subs.failing),
      { cookie: bobCookie, origin: baseURL },
      paddedBody(2, MiB + 1),
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('payload_too_large');
    expect(res.requestId).toMatch(/^req_/);
    expect(await readSub(bob, subs.failing)).toEqual(before);
  });

  test('413 beats 401: an oversized body without any credential, by Content-Length and chunked', async ({
    request,
  }) => {
    const res = await request.patch(subPath(subs.failing), {
      data: paddedBody(2, MiB + 1),
      headers: { 'content-type': 'application/json' },
    });
    await expectError(res, 413, 'payload_too_large');
    const chunked = await sendChunked(subPath(subs.failing), {}, paddedBody(2, MiB + 1));
    expect(chunked.status).toBe(413);
  });
});

test.describe('bodies that are not JSON', () => {
  test('invalid JSON and a missing body are 400 invalid_request at "", nothing changed', async () => {
    const before = await readSub(bob, subs.failing);
    const bad = await bob.patch(subPath(subs.failing), {
      data: '{"batchSize": 2',
      headers: { 'content-type': 'application/json' },
    });
    await expectError(bad, 400, 'invalid_request', ['']);
    const missing = await bob.patch(subPath(subs.failing));
    await expectError(missing, 400, 'invalid_request', ['']);
    const blank = await bob.patch(subPath(subs.failing), {
      data: '   ',
      headers: { 'content-type': 'application/json' },
    });
    await expectError(blank, 400, 'invalid_request', ['']);
    expect(await readSub(bob, subs.failing)).toEqual(before);
  });
});

test.describe('credentials and origins', () => {
  test('no credential is 401, nothing changed', async ({ request }) => {
    const before = await readSub(bob, subs.failing);
    await expectError(await request.patch(subPath(subs.failing), { data: { batchSize: 2 } }), 401, 'unauthenticated');
    expect(await readSub(bob, subs.failing)).toEqual(before);
  });

  test('a cookie write from another origin, or with no Origin and a cross-site fetch, is 403 forbidden_origin', async () => {
    const before = await readSub(bob, subs.failing);
    const noOrigin = await bobWithoutOrigin();
    await expectError(
      await bob.patch(subPath(subs.failing), { data: { batchSize: 2 }, headers: { Origin: 'https://evil.example' } }),
      403,
      'forbidden_origin',
    );
    await expectError(
      await noOrigin.patch(subPath(subs.failing), {
        data: { batchSize: 2 },
        headers: { 'Sec-Fetch-Site': 'cross-site' },
      }),
      403,
      'forbidden_origin',
    );
    await expectError(await noOrigin.patch(subPath(subs.failing), { data: { batchSize: 2 } }), 403, 'forbidden_origin');
    expect(await readSub(bob, subs.failing)).toEqual(before);
    await noOrigin.dispose();
  });

  test('a cookie write with no Origin but Sec-Fetch-Site: same-origin passes', async () => {
    const before = await readSub(bob, subs.failing);
    const noOrigin = await bobWithoutOrigin();
    try {
      const res = await noOrigin.patch(subPath(subs.failing), {
        data: { batchSize: 2 },
        headers: { 'Sec-Fetch-Site': 'same-origin' },
      });
      expect(res.status()).toBe(200);
      expect((await res.json()).batchSize).toBe(2);
    } finally {
      const restore = await bob.patch(subPath(subs.failing), { data: { batchSize: before.batchSize } });
      expect(restore.status()).toBe(200);
      await noOrigin.dispose();
    }
  });

  test('bearer writes need no Origin and are not origin-checked', async ({ fixtures }) => {
    const before = await readSub(bob, subs.failing);
    const bot = await bearer(fixtures.keys.deployBot);
    try {
      expect((await bot.patch(subPath(subs.failing), { data: { maxConcurrency: 5 } })).status()).toBe(200);
      const foreign = await bot.patch(subPath(subs.failing), {
        data: { maxConcurrency: 6 },
        headers: { Origin: 'https://evil.example' },
      });
      expect(foreign.status()).toBe(200);
      expect((await foreign.json()).maxConcurrency).toBe(6);
    } finally {
      expect(
        (await bot.patch(subPath(subs.failing), { data: { maxConcurrency: before.maxConcurrency } })).status(),
      ).toBe(200);
      await bot.dispose();
    }
  });

  test('cy is 403 access_denied, nothing changed', async ({ as }) => {
    const cy = await as('cy');
    const before = await readSub(cy, subs.failing);
    await expectError(await cy.patch(subPath(subs.failing), { data: { batchSize: 2 } }), 403, 'access_denied');
    expect(await readSub(cy, subs.failing)).toEqual(before);
  });
});

test.describe('the order of checks with several faults at once', () => {
  test('forbidden origin beats a malformed id, access and an invalid body', async () => {
    const evil = { headers: { Origin: 'https://evil.example' } };
    await expectError(
      await bob.patch(subPath(subs.failing), { data: { batchSize: 0 }, ...evil }),
      403,
      'forbidden_origin',
    );
    await expectError(
      await bob.patch(`${subsPath(demo.acme, demo.production)}/not-a-uuid`, { data: '{', ...evil }),
      403,
      'forbidden_origin',
    );
    await expectError(
      await bob.patch(subPath(subs.staging), { data: { batchSize: 0 }, ...evil }),
      403,
      'forbidden_origin',
    );
  });

  test('401 beats an invalid body and an unknown organization', async ({ request }) => {
    await expectError(
      await request.patch(subPath(subs.failing), { data: '{', headers: { 'content-type': 'application/json' } }),
      401,
      'unauthenticated',
    );
    await expectError(await request.patch(subPath(subs.globex), { data: { batchSize: 0 } }), 401, 'unauthenticated');
  });

  test('access_denied beats an invalid body; 400 beats an unknown subscription; a malformed id is 404', async ({
    as,
  }) => {
    const cy = await as('cy');
    await expectError(
      await cy.patch(subPath(subs.failing), { data: '{', headers: { 'content-type': 'application/json' } }),
      403,
      'access_denied',
    );
    const unknown = `${subsPath(demo.acme, demo.production)}/00000000-0000-4000-8000-000000000000`;
    await expectError(await bob.patch(unknown, { data: { batchSize: 0, foo: 1 } }), 400, 'invalid_request', [
      'batchSize',
      'foo',
    ]);
    await expectError(
      await bob.patch(`${subsPath(demo.acme, demo.production)}/not-a-uuid`, { data: { batchSize: 0 } }),
      404,
      'not_found',
    );
  });

  test('413 beats a foreign origin and a malformed id', async () => {
    const res = await bob.patch(`${subsPath(demo.acme, demo.production)}/not-a-uuid`, {
      data: paddedBody(2, MiB + 1),
      headers: { 'content-type': 'application/json', Origin: 'https://evil.example' },
    });
    await expectError(res, 413, 'payload_too_large');
  });
});
