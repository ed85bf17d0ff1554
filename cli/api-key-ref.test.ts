import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keySearchText, resolveApiKey, type ApiKey } from './api-key-ref';
import { parseExpiresInDays } from './commands/api-keys';
import { FRESH_API_KEY } from '../e2e/support/fresh-api-key';

const key = (id: string, name: string, prefix: string): ApiKey => ({
  id,
  name,
  prefix,
  owner: { type: 'user', id: 'u', name: 'Ada' },
  createdAt: '2025-01-01T00:00:00.000Z',
  expiresAt: null,
  ...FRESH_API_KEY,
});

const a = key('11111111-1111-4111-8111-111111111111', 'deploy', 'svc_Ab12');
const b = key('22222222-2222-4222-8222-222222222222', 'deploy', 'svc_Ab9Z');
const c = key('33333333-3333-4333-8333-333333333333', 'svc_Ab12', 'svc_Zz00');

describe('resolveApiKey', () => {
  it('prefers an exact id, then an exact name, then a prefix', () => {
    expect(resolveApiKey([a, b, c], a.id)).toEqual({ kind: 'one', key: a, by: 'id' });
    // A name that looks like a prefix is still a name first.
    expect(resolveApiKey([a, b, c], 'svc_Ab12')).toEqual({ kind: 'one', key: c, by: 'name' });
    expect(resolveApiKey([a, b], 'svc_Ab12…')).toEqual({ kind: 'one', key: a, by: 'prefix' });
    expect(resolveApiKey([a, b], 'svc_Ab9Z...')).toEqual({ kind: 'one', key: b, by: 'prefix' });
  });

  it('reports ambiguity instead of picking one', () => {
    expect(resolveApiKey([a, b, c], 'deploy')).toEqual({ kind: 'ambiguous', keys: [a, b], by: 'name' });
    expect(resolveApiKey([a, b, c], 'svc_Ab')).toEqual({ kind: 'ambiguous', keys: [a, b], by: 'prefix' });
  });

  it('matches nothing for other text, names are case-sensitive, and prefixes never match by a longer text', () => {
    expect(resolveApiKey([a, b, c], 'Deploy')).toEqual({ kind: 'none' });
    expect(resolveApiKey([a, b, c], 'svc_')).toEqual({ kind: 'none' });
    expect(resolveApiKey([a, b, c], 'svc_Ab12345')).toEqual({ kind: 'none' });
  });
});

describe('parseExpiresInDays', () => {
  it('accepts whole days from 1 to 365 only', () => {
    expect(parseExpiresInDays('1')).toBe(1);
    expect(parseExpiresInDays('365')).toBe(365);
    for (const bad of ['0', '366', '-1', '1.5', 'abc', '', ' 7', '1e2'])
      expect(() => parseExpiresInDays(bad), bad).toThrow(/1 to 365/);
  });
});

describe('--grace', () => {
  it('takes seconds or a number with s, m, h or d, up to 7 days', async () => {
    const { parseGrace } = await import('./commands/api-keys');
    expect([parseGrace('0'), parseGrace('90s'), parseGrace('15m'), parseGrace('24h'), parseGrace('7d')]).toEqual([
      0, 90, 900, 86_400, 604_800,
    ]);
    for (const bad of ['8d', '604801', '-1', '1.5h', 'soon', '']) expect(() => parseGrace(bad), bad).toThrow(/7 days/);
  });
});

describe('keySearchText', () => {
  // What the server's `q` keeps: a name containing it in any case, or a prefix starting with it.
  const serverSearch = (keys: ApiKey[], q: string) =>
    keys.filter((k) => k.name.toLowerCase().includes(q.toLowerCase()) || k.prefix.startsWith(q));
  const text = fc.string({
    unit: fc.constantFrom('a', 'B', 'b', '_', ' ', 's', 'v', 'c', '1', '…', '.'),
    minLength: 1,
    maxLength: 8,
  });
  const keys = fc.array(
    fc.record({
      name: fc.oneof(
        text,
        text.map((t) => `svc_${t}`),
      ),
      prefix: text.map((t) => `svc_${t}`),
    }),
    { minLength: 1, maxLength: 8 },
  );

  it('the searched list resolves a name or prefix exactly as the whole list does', () => {
    fc.assert(
      fc.property(keys, fc.nat(), fc.constantFrom('name', 'prefix', 'prefix…', 'prefix...'), (specs, n, form) => {
        const all = specs.map((s, i) =>
          key(`${i}`.padStart(8, '0') + '-0000-4000-8000-000000000000', s.name, s.prefix),
        );
        const picked = specs[n % specs.length];
        const ref = form === 'name' ? picked.name : `${picked.prefix}${form.slice('prefix'.length)}`;
        const q = keySearchText(ref);
        expect(q).not.toBeNull();
        expect(resolveApiKey(serverSearch(all, q!), ref)).toEqual(resolveApiKey(all, ref));
      }),
    );
  });

  it('an id is not searched for', () => {
    expect(keySearchText(a.id)).toBeNull();
  });
});
