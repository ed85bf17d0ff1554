import { afterEach, describe, expect, it } from 'vitest';
import { allowedOrigins, clientAddress, PEER_HEADER, publicOrigin } from './public-origin';

const req = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/v1/x', { method: 'POST', headers: { host: '127.0.0.1:3000', ...headers } });
const forwarded = { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };

describe('public origin and client address', () => {
  afterEach(() => {
    for (const name of ['TRUST_PROXY', 'APP_URL', 'NEXTAUTH_URL', 'SVC_PEER_NONCE']) delete process.env[name];
  });

  it('ignores forwarded headers unless TRUST_PROXY is on', () => {
    expect([...allowedOrigins(req(forwarded))]).toEqual(['http://127.0.0.1:3000']);
    expect(clientAddress(req(forwarded).headers)).toBe('unknown');
    process.env.TRUST_PROXY = 'true';
    expect(allowedOrigins(req(forwarded)).has('https://evil.test')).toBe(true);
    expect(clientAddress(req({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }).headers)).toBe('10.0.0.1');
  });

  it('takes the entry the trusted proxy appended, never one the client wrote before it', () => {
    const chain = req({ 'x-forwarded-for': 'forged.1, 203.0.113.9 ,198.51.100.2, 10.0.0.1' }).headers;
    process.env.TRUST_PROXY = '1';
    expect(clientAddress(chain)).toBe('10.0.0.1');
    process.env.TRUST_PROXY = '2';
    expect(clientAddress(chain)).toBe('198.51.100.2');
    process.env.TRUST_PROXY = '3';
    expect(clientAddress(chain)).toBe('203.0.113.9');
    process.env.TRUST_PROXY = '9';
    expect(clientAddress(chain)).toBe('forged.1');
    process.env.TRUST_PROXY = '0';
    expect(clientAddress(chain)).toBe('unknown');
  });

  it("takes the socket's address only from the header signed with this process's nonce", () => {
    process.env.SVC_PEER_NONCE = 'n0nce';
    expect(clientAddress(req({ [PEER_HEADER]: 'n0nce 198.51.100.7', ...forwarded }).headers)).toBe('198.51.100.7');
    expect(clientAddress(req({ [PEER_HEADER]: 'guessed 198.51.100.8' }).headers)).toBe('unknown');
  });

  it('prefers APP_URL, then NEXTAUTH_URL, then the request', () => {
    expect(publicOrigin(req({}))).toBe('http://127.0.0.1:3000');
    process.env.NEXTAUTH_URL = 'https://auth.example.com/api/auth';
    expect(publicOrigin(req({}))).toBe('https://auth.example.com');
    process.env.APP_URL = 'https://console.example.com/';
    expect(publicOrigin(req({}))).toBe('https://console.example.com');
  });
});
