import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { baseURL, E2E } from './env';

export type ScannerKey = { keyId: string; privateKey: string };
export type ReportItem = { token: string; type: string; url: string; source: string };
export type ReportAnswer = { token_hash: string; token_type: string; label: 'true_positive' | 'false_positive' };

/** The key pair serve.sh generated for the main test server at its start. */
export function serverScannerKey(port = E2E.port): ScannerKey {
  return JSON.parse(readFileSync(path.join(E2E.stateDir, `scanner-${port}.json`), 'utf8')) as ScannerKey;
}

/** A new partner key pair, and the SECRET_SCANNING_PUBLIC_KEYS value that trusts it. */
export function newScannerKey(keyId: string): ScannerKey & { env: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    keyId,
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    env: JSON.stringify([{ key_identifier: keyId, key: publicKey.export({ type: 'spki', format: 'pem' }) }]),
  };
}

export function signatureFor(body: string | Buffer, key: ScannerKey): string {
  return sign('sha256', Buffer.from(body), key.privateKey).toString('base64');
}

/** POSTs a report as a partner would: the raw body, signed, with the generic header names unless told. */
export async function postReport(
  body: string,
  key: ScannerKey,
  { url = baseURL, headers }: { url?: string; headers?: Record<string, string> } = {},
) {
  const ctx = await playwrightRequest.newContext({ baseURL: url });
  const res = await ctx.post('/v1/secret-scanning/reports', {
    data: body,
    headers: headers ?? {
      'Content-Type': 'application/json',
      'Secret-Scanning-Key-Identifier': key.keyId,
      'Secret-Scanning-Signature': signatureFor(body, key),
    },
  });
  const answer = { status: res.status(), text: await res.text() };
  await ctx.dispose();
  return answer;
}

export const leak = (token: string, url = 'https://example.test/acme/leaky/blob/main/.env'): ReportItem => ({
  token,
  type: 'svc_token',
  url,
  source: 'content',
});

/** A real OAuth access token (`svcoa_…`) from the device login, approved by the given session. */
export async function deviceLoginToken(session: APIRequestContext): Promise<string> {
  const anonymous = await playwrightRequest.newContext({ baseURL });
  const code = await (await anonymous.post('/oauth/device/code', { form: { client_id: 'svc-cli' } })).json();
  const approve = await session.post(`/v1/device-authorizations/${code.user_code}/approve`);
  expect(approve.status(), await approve.text()).toBe(200);
  const token = await anonymous.post('/oauth/token', {
    form: {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: code.device_code,
      client_id: 'svc-cli',
    },
  });
  expect(token.status(), await token.text()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  await anonymous.dispose();
  return access_token;
}
