import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { generateApiKey, sha256Hex } from '../auth/api-key-format';
import { generateToken } from '../oauth/codes';
import { classifyToken, TOKEN_PATTERNS } from './tokens';

// Any database access in this file is a failure: malformed tokens must be answered without one.
vi.mock('../db/client', () => ({
  getDb: () => {
    throw new Error('the database was consulted');
  },
}));

const { handleLeakReport } = await import('./service');

const scim = () => `scim_${randomBytes(32).toString('base64url')}`;
const source = {
  actor: { type: 'secret_scanner' as const, id: null, name: 't', via: null, credential: null },
  context: { requestId: null, ip: null, userAgent: null },
};

describe('classifyToken', () => {
  it('recognises every credential this service issues, with its SHA-256', () => {
    const key = generateApiKey();
    expect(classifyToken(key)).toEqual({ kind: 'api_key', hash: sha256Hex(key) });
    expect(classifyToken(generateToken('access'))?.kind).toBe('oauth_access_token');
    expect(classifyToken(generateToken('refresh'))?.kind).toBe('oauth_refresh_token');
    expect(classifyToken(scim())?.kind).toBe('scim_token');
  });

  it('matches the documented patterns for freshly issued credentials', () => {
    expect(generateApiKey()).toMatch(TOKEN_PATTERNS.api_key);
    expect(generateToken('access')).toMatch(TOKEN_PATTERNS.oauth_access_token);
    expect(generateToken('refresh')).toMatch(TOKEN_PATTERNS.oauth_refresh_token);
    expect(scim()).toMatch(TOKEN_PATTERNS.scim_token);
  });

  it('refuses a key whose checksum fails, and strings of no known shape', () => {
    const key = generateApiKey();
    const flipped = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(classifyToken(flipped)).toBeNull();
    expect(classifyToken('svc_short')).toBeNull();
    expect(classifyToken(`svcoa_${'a'.repeat(42)}`)).toBeNull();
    expect(classifyToken('ghp_0123456789abcdef')).toBeNull();
    expect(classifyToken(`${key} `)).toBeNull();
  });
});

describe('handleLeakReport', () => {
  it('answers a batch of 1,000 malformed tokens as false positives without touching the database', async () => {
    const key = generateApiKey();
    const bad = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    const items = Array.from({ length: 1000 }, (_, i) => ({
      token: i % 2 ? bad : `not-a-token-${i}`,
      type: 'svc_api_key',
      url: 'https://example.test/x',
      source: 'content',
    }));
    const answer = await handleLeakReport(items, source);
    expect(answer).toHaveLength(1000);
    expect(answer.every((a) => a.label === 'false_positive' && a.token_type === 'svc_api_key')).toBe(true);
    expect(answer[1].token_hash).toBe(sha256Hex(bad));
  });
});
