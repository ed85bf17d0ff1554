import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { bearer, expect, expectError, test } from '../fixtures';
import { baseURL } from '../support/env';

// The OAuth endpoints speak RFC 6749 (forms in, {error, error_description} out), not the /v1 envelope.
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

let anonymous: APIRequestContext;
test.beforeAll(async () => {
  anonymous = await playwrightRequest.newContext({ baseURL });
});
test.afterAll(() => anonymous.dispose());

type DeviceCode = {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
};

async function deviceCode(clientId = 'svc-cli'): Promise<DeviceCode> {
  const res = await anonymous.post('/oauth/device/code', { form: { client_id: clientId } });
  expect(res.status()).toBe(200);
  return (await res.json()) as DeviceCode;
}

const poll = (code: string) =>
  anonymous.post('/oauth/token', { form: { grant_type: DEVICE_GRANT, device_code: code, client_id: 'svc-cli' } });

async function oauthError(res: Awaited<ReturnType<typeof poll>>, status: number, error: string) {
  expect(res.status(), await res.text()).toBe(status);
  expect(res.headers()['cache-control']).toBe('no-store');
  const body = (await res.json()) as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(body.error_description.length).toBeGreaterThan(0);
}

test('the device endpoint answers RFC 8628 fields with an unambiguous user code and the console URL', async () => {
  const code = await deviceCode();
  expect(code.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  expect(code.verification_uri).toBe(`${baseURL}/device`);
  expect(code.verification_uri_complete).toBe(`${baseURL}/device?user_code=${code.user_code}`);
  expect(code.expires_in).toBe(600);
  expect(code.interval).toBe(5);
  expect(code.device_code.length).toBeGreaterThanOrEqual(40);
});

test('unknown clients, grant types and bodies that are not forms are refused as RFC 6749 says', async () => {
  await oauthError(
    await anonymous.post('/oauth/device/code', { form: { client_id: 'evil-cli' } }),
    401,
    'invalid_client',
  );
  await oauthError(
    await anonymous.post('/oauth/token', { form: { grant_type: 'password', client_id: 'svc-cli' } }),
    400,
    'unsupported_grant_type',
  );
  await oauthError(
    await anonymous.post('/oauth/token', { data: { grant_type: DEVICE_GRANT } }),
    400,
    'invalid_request',
  );
  await oauthError(await poll('not-a-device-code'), 400, 'invalid_grant');
});

test('polling: pending, slow_down when faster than the interval, access_denied after a denial', async ({ as }) => {
  const code = await deviceCode();
  await oauthError(await poll(code.device_code), 400, 'authorization_pending');
  await oauthError(await poll(code.device_code), 400, 'slow_down');
  const bob = await as('bob');
  const denied = await bob.post(`/v1/device-authorizations/${code.user_code}/deny`);
  expect(denied.status()).toBe(200);
  expect((await denied.json()).status).toBe('denied');
  await oauthError(await poll(code.device_code), 400, 'access_denied');
  // Decided codes are gone from the approval page.
  await expectError(await bob.get(`/v1/device-authorizations/${code.user_code}`), 404, 'not_found');
});

test('approval gives one token pair, acting as the approver; the code cannot be exchanged twice', async ({
  as,
  demo,
}) => {
  const code = await deviceCode();
  const bob = await as('bob');
  const pending = await bob.get(`/v1/device-authorizations/${code.user_code.toLowerCase().replace('-', '')}`);
  expect(pending.status()).toBe(200);
  expect(await pending.json()).toMatchObject({
    userCode: code.user_code,
    clientId: 'svc-cli',
    clientName: 'svc CLI',
    status: 'pending',
  });
  expect((await (await bob.post(`/v1/device-authorizations/${code.user_code}/approve`)).json()).status).toBe(
    'approved',
  );

  const res = await poll(code.device_code);
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('no-store');
  const tokens = (await res.json()) as {
    access_token: string;
    refresh_token: string;
    token_type: string;
    expires_in: number;
  };
  expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  expect(tokens.access_token).not.toMatch(/^svc_/);

  const asToken = await bearer(tokens.access_token);
  const orgs = (await (await asToken.get('/v1/organizations')).json()) as { items: { id: string }[] };
  expect(orgs.items.map((o) => o.id)).toEqual([demo.acme]);
  // bob's own policies: BasicAccess has no members.list.
  await expectError(await asToken.get(`/v1/organizations/${demo.acme}/members`), 403, 'access_denied');
  await oauthError(await poll(code.device_code), 400, 'invalid_grant');
  await expectError(await (await bearer(tokens.refresh_token)).get('/v1/organizations'), 401, 'unauthenticated');

  // Rotation: the refresh token works once, and retires the access token it replaces.
  const refreshed = await anonymous.post('/oauth/token', {
    form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'svc-cli' },
  });
  expect(refreshed.status()).toBe(200);
  const next = (await refreshed.json()) as { access_token: string };
  await expectError(await asToken.get('/v1/organizations'), 401, 'unauthenticated');
  expect((await (await bearer(next.access_token)).get('/v1/organizations')).status()).toBe(200);
  await asToken.dispose();
});

test('only a console session may see, approve or deny a code: tokens and API keys get 403, other origins too', async ({
  as,
  fixtures,
}) => {
  const code = await deviceCode();
  const approve = `/v1/device-authorizations/${code.user_code}/approve`;
  const apiKey = await bearer(fixtures.keys.deployBot);
  await expectError(await apiKey.post(approve), 403, 'access_denied');
  await expectError(await apiKey.get(`/v1/device-authorizations/${code.user_code}`), 403, 'access_denied');

  // A token approved by bob cannot approve another login.
  const bob = await as('bob');
  const other = await deviceCode();
  await bob.post(`/v1/device-authorizations/${other.user_code}/approve`);
  const { access_token } = (await (await poll(other.device_code)).json()) as { access_token: string };
  const token = await bearer(access_token);
  await expectError(await token.post(approve), 403, 'access_denied');

  await expectError(await bob.post(approve, { headers: { Origin: 'https://evil.example' } }), 403, 'forbidden_origin');
  // Nothing was approved by any of these.
  await oauthError(await poll(code.device_code), 400, 'authorization_pending');
  await Promise.all([apiKey.dispose(), token.dispose()]);
});

test('unknown and malformed codes are 404 with a message the page shows', async ({ as }) => {
  const bob = await as('bob');
  const unknown = await expectError(await bob.post('/v1/device-authorizations/BBBB-BBBB/approve'), 404, 'not_found');
  expect(unknown.message).toContain('svc login');
  await expectError(await bob.get('/v1/device-authorizations/not-a-code'), 404, 'not_found');
  await expectError(await anonymous.get('/v1/device-authorizations/BBBB-BBBB'), 401, 'unauthenticated');
});

test('revoking a token (RFC 7009) ends both tokens of the login; unknown tokens still answer 200', async ({ as }) => {
  const code = await deviceCode();
  await (await as('cy')).post(`/v1/device-authorizations/${code.user_code}/approve`);
  const tokens = (await (await poll(code.device_code)).json()) as { access_token: string; refresh_token: string };
  const revoke = (token: string) => anonymous.post('/oauth/revoke', { form: { token, client_id: 'svc-cli' } });
  expect((await revoke('no-such-token')).status()).toBe(200);
  expect((await revoke(tokens.access_token)).status()).toBe(200);
  await expectError(await (await bearer(tokens.access_token)).get('/v1/organizations'), 401, 'unauthenticated');
  await oauthError(
    await anonymous.post('/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'svc-cli' },
    }),
    400,
    'invalid_grant',
  );
});
