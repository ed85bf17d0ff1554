import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTrustedKeys, signatureHeaders, verifyReportSignature } from './signature';

const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const trusted = pair();
const other = pair();
const keys = parseTrustedKeys(
  JSON.stringify([{ key_identifier: 'k1', key: trusted.publicKey.export({ type: 'spki', format: 'pem' }) }]),
);
const body = Buffer.from('[{"token":"x","type":"t","url":"u","source":"s"}]');
const signed = (key = trusted.privateKey, data = body) => sign('sha256', data, key).toString('base64');

describe('report signatures', () => {
  it('accepts an ECDSA P-256 signature over the raw body by a trusted key', () => {
    expect(verifyReportSignature(body, 'k1', signed(), keys)).toBe(true);
  });

  it('refuses a tampered body, another key, an unknown key id, a missing or garbled signature', () => {
    expect(verifyReportSignature(Buffer.from(`${body} `), 'k1', signed(), keys)).toBe(false);
    expect(verifyReportSignature(body, 'k1', signed(other.privateKey), keys)).toBe(false);
    expect(verifyReportSignature(body, 'k2', signed(), keys)).toBe(false);
    expect(verifyReportSignature(body, 'k1', null, keys)).toBe(false);
    expect(verifyReportSignature(body, null, signed(), keys)).toBe(false);
    expect(verifyReportSignature(body, 'k1', 'not base64 DER', keys)).toBe(false);
  });

  it('reads the generic headers and GitHub’s', () => {
    expect(
      signatureHeaders(new Headers({ 'Secret-Scanning-Key-Identifier': 'a', 'Secret-Scanning-Signature': 'b' })),
    ).toEqual({ keyId: 'a', signature: 'b' });
    expect(
      signatureHeaders(new Headers({ 'GITHUB-PUBLIC-KEY-IDENTIFIER': 'c', 'GITHUB-PUBLIC-KEY-SIGNATURE': 'd' })),
    ).toEqual({
      keyId: 'c',
      signature: 'd',
    });
  });
});
