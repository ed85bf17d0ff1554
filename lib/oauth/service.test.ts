import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '../db/client';
import * as t from '../db/schema';
import { openDemoDatabase } from '../../server/testing/test-database';
import { sha256Hex } from '../auth/api-key-format';
import { principalForOAuthToken } from '../auth/service';
import type { AuditSource } from '../db/audit-types';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  DEVICE_CODE_TTL_SECONDS,
  POLL_INTERVAL_SECONDS,
  USER_CODE_ALPHABET,
  normalizeUserCode,
} from './codes';
import {
  createDeviceAuthorization,
  decideDeviceAuthorization,
  exchangeDeviceCode,
  findPendingDeviceAuthorization,
  refreshTokens,
  revokeToken,
  type OAuthErrorCode,
} from './service';

// The device-grant state machine against the real schema on an embedded database; time is passed in, never waited for.
const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-oauth-'));
let ada = '';
const source: AuditSource = {
  actor: { type: 'user', id: null, name: 'Ada', via: 'session', credential: null },
  context: { requestId: 'req_test', ip: '127.0.0.1', userAgent: 'vitest' },
};
const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

beforeAll(async () => {
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  const db = await openDemoDatabase();
  ada = (await db.select().from(t.users).where(eq(t.users.email, 'ada@acme.test')))[0].id;
});

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

async function oauthError(promise: Promise<unknown>): Promise<OAuthErrorCode> {
  const err = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as { name?: string; code?: OAuthErrorCode } | null;
  expect(err?.name, 'expected an OAuthError').toBe('OAuthError');
  return err!.code!;
}

describe('device authorization grant', () => {
  it('issues an unambiguous user code and stores only hashes', async () => {
    const { deviceCode, userCode, expiresIn, interval } = await createDeviceAuthorization('svc-cli', T0);
    expect(userCode).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{4}-[${USER_CODE_ALPHABET}]{4}$`));
    expect([expiresIn, interval]).toEqual([DEVICE_CODE_TTL_SECONDS, POLL_INTERVAL_SECONDS]);
    const db = await getDb();
    const [row] = await db
      .select()
      .from(t.oauthDeviceCodes)
      .where(eq(t.oauthDeviceCodes.deviceCodeHash, sha256Hex(deviceCode)));
    expect(row.userCode).toBe(sha256Hex(normalizeUserCode(userCode)!));
    expect(JSON.stringify(row)).not.toContain(deviceCode);
  });

  it('refuses an unknown client', async () => {
    expect(await oauthError(createDeviceAuthorization('someone-else', T0))).toBe('invalid_client');
    expect(await oauthError(createDeviceAuthorization(null, T0))).toBe('invalid_client');
  });

  it('answers pending, then slow_down when polled inside the interval, which grows by 5 s', async () => {
    const { deviceCode } = await createDeviceAuthorization('svc-cli', T0);
    expect(await oauthError(exchangeDeviceCode(deviceCode, 'svc-cli', at(5)))).toBe('authorization_pending');
    expect(await oauthError(exchangeDeviceCode(deviceCode, 'svc-cli', at(9)))).toBe('slow_down');
    // The interval is now 10 s: 9 s after the last poll is still too fast, 10 s is fine.
    expect(await oauthError(exchangeDeviceCode(deviceCode, 'svc-cli', at(18)))).toBe('slow_down');
    expect(await oauthError(exchangeDeviceCode(deviceCode, 'svc-cli', at(33)))).toBe('authorization_pending');
  });

  it('gives tokens exactly once after approval, acting as the approving user', async () => {
    const { deviceCode, userCode } = await createDeviceAuthorization('svc-cli', T0);
    expect((await findPendingDeviceAuthorization(userCode.toLowerCase().replace('-', ''), at(1)))?.clientName).toBe(
      'svc CLI',
    );
    expect((await decideDeviceAuthorization(userCode, ada, 'approved', source, at(2)))?.status).toBe('approved');
    expect(await findPendingDeviceAuthorization(userCode, at(3))).toBeNull();
    expect(await decideDeviceAuthorization(userCode, ada, 'denied', source, at(3))).toBeNull();

    const tokens = await exchangeDeviceCode(deviceCode, 'svc-cli', at(5));
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS });
    expect(tokens.access_token).not.toMatch(/^svc_/);
    expect((await principalForOAuthToken(tokens.access_token, at(6)))?.id).toBe(ada);
    expect(await principalForOAuthToken(tokens.access_token, at(5 + ACCESS_TOKEN_TTL_SECONDS))).toBeNull();
    expect(await principalForOAuthToken(tokens.refresh_token, at(6))).toBeNull();
    expect(await oauthError(exchangeDeviceCode(deviceCode, 'svc-cli', at(10)))).toBe('invalid_grant');
  });

  it('answers access_denied after a denial and expired_token after the code expires', async () => {
    const denied = await createDeviceAuthorization('svc-cli', T0);
    await decideDeviceAuthorization(denied.userCode, ada, 'denied', source, at(1));
    expect(await oauthError(exchangeDeviceCode(denied.deviceCode, 'svc-cli', at(5)))).toBe('access_denied');

    const late = await createDeviceAuthorization('svc-cli', T0);
    expect(
      await decideDeviceAuthorization(late.userCode, ada, 'approved', source, at(DEVICE_CODE_TTL_SECONDS)),
    ).toBeNull();
    expect(await findPendingDeviceAuthorization(late.userCode, at(DEVICE_CODE_TTL_SECONDS))).toBeNull();
    expect(await oauthError(exchangeDeviceCode(late.deviceCode, 'svc-cli', at(DEVICE_CODE_TTL_SECONDS)))).toBe(
      'expired_token',
    );
  });

  it('refuses unknown device codes and codes of another client', async () => {
    expect(await oauthError(exchangeDeviceCode('nope', 'svc-cli', T0))).toBe('invalid_grant');
    expect(await oauthError(exchangeDeviceCode(null, 'svc-cli', T0))).toBe('invalid_request');
  });
});

async function login(now = T0) {
  const { deviceCode, userCode } = await createDeviceAuthorization('svc-cli', now);
  await decideDeviceAuthorization(userCode, ada, 'approved', source, now);
  return exchangeDeviceCode(deviceCode, 'svc-cli', now);
}

describe('refresh and revocation', () => {
  it('rotates the refresh token and retires the old access token', async () => {
    const first = await login();
    const second = await refreshTokens(first.refresh_token, 'svc-cli', source.context, at(60));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await principalForOAuthToken(first.access_token, at(61))).toBeNull();
    expect((await principalForOAuthToken(second.access_token, at(61)))?.id).toBe(ada);
  });

  it('revokes the whole login when a used refresh token comes back (it leaked)', async () => {
    const first = await login();
    const second = await refreshTokens(first.refresh_token, 'svc-cli', source.context, at(60));
    expect(await oauthError(refreshTokens(first.refresh_token, 'svc-cli', source.context, at(70)))).toBe(
      'invalid_grant',
    );
    expect(await principalForOAuthToken(second.access_token, at(71))).toBeNull();
    expect(await oauthError(refreshTokens(second.refresh_token, 'svc-cli', source.context, at(72)))).toBe(
      'invalid_grant',
    );
  });

  it('revoking either token ends both; unknown tokens are not an error', async () => {
    const tokens = await login();
    await revokeToken('not-a-token', 'svc-cli', source.context, at(1));
    await revokeToken(tokens.refresh_token, 'svc-cli', source.context, at(1));
    expect(await principalForOAuthToken(tokens.access_token, at(2))).toBeNull();
    expect(await oauthError(refreshTokens(tokens.refresh_token, 'svc-cli', source.context, at(2)))).toBe(
      'invalid_grant',
    );
  });

  it("stops a suspended user's tokens and refuses to refresh them", async () => {
    const tokens = await login();
    const db = await getDb();
    await db.update(t.users).set({ status: 'suspended' }).where(eq(t.users.id, ada));
    try {
      expect(await principalForOAuthToken(tokens.access_token, at(1))).toBeNull();
      expect(await oauthError(refreshTokens(tokens.refresh_token, 'svc-cli', source.context, at(1)))).toBe(
        'invalid_grant',
      );
    } finally {
      await db.update(t.users).set({ status: 'active' }).where(eq(t.users.id, ada));
    }
  });
});
