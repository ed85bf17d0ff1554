import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { checkOrigin } from './origin';

const req = (method: string, headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/v1/x', { method, headers: { host: '127.0.0.1:3000', ...headers } });
const refused = (r: Request) => {
  try {
    checkOrigin(r);
    return false;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('forbidden_origin');
    return true;
  }
};

describe('origin check of cookie-authenticated writes', () => {
  afterEach(() => {
    delete process.env.ALLOWED_ORIGINS;
  });

  it('lets reads through whatever their origin', () => {
    expect(refused(req('GET', { origin: 'https://evil.example' }))).toBe(false);
  });

  it('accepts the app’s own origin and refuses any other, including "null"', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(refused(req(method, { origin: 'http://127.0.0.1:3000' }))).toBe(false);
      expect(refused(req(method, { origin: 'https://evil.example' }))).toBe(true);
      expect(refused(req(method, { origin: 'http://127.0.0.1:3001' }))).toBe(true);
      expect(refused(req(method, { origin: 'null' }))).toBe(true);
    }
  });

  it('without Origin, only Sec-Fetch-Site: same-origin passes', () => {
    expect(refused(req('PATCH', { 'sec-fetch-site': 'same-origin' }))).toBe(false);
    expect(refused(req('PATCH', { 'sec-fetch-site': 'same-site' }))).toBe(true);
    expect(refused(req('PATCH', { 'sec-fetch-site': 'cross-site' }))).toBe(true);
    expect(refused(req('PATCH', {}))).toBe(true);
  });

  it('accepts origins listed in ALLOWED_ORIGINS', () => {
    process.env.ALLOWED_ORIGINS = 'https://console.example.com, https://admin.example.com/';
    expect(refused(req('POST', { origin: 'https://admin.example.com' }))).toBe(false);
    expect(refused(req('POST', { origin: 'https://console.example.com' }))).toBe(false);
    expect(refused(req('POST', { origin: 'https://other.example.com' }))).toBe(true);
  });
});
