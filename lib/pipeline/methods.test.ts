import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { getSilenceOp, updateSilenceOp } from '../silences/operations';
import { HTTP_METHODS, otherMethods, unknownPath } from './methods';

const root = path.resolve(__dirname, '../../app/v1');

function routeFiles(dir = root): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === 'route.ts' ? [full] : [];
  });
}

describe('methods under /v1', () => {
  it.each(routeFiles().map((file) => [path.relative(root, file), file]))(
    '%s answers every method: its operations, the rest in the envelope',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      const own = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
      const rest = /export const \{([^}]*)\} = (?:otherMethods|unknownPath)\(/.exec(source)?.[1] ?? '';
      const answered = [...own, ...rest.split(',').map((name) => name.trim())].filter(Boolean);
      expect([...answered].sort()).toEqual([...HTTP_METHODS].sort());
    },
  );

  it('answers a missing method with 405 method_not_allowed and Allow from the operations', async () => {
    const res = await otherMethods(getSilenceOp, updateSilenceOp).DELETE(
      new NextRequest('http://x/v1/organizations/o/projects/p/obs/silences/s', { method: 'DELETE' }),
    );
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH, HEAD, OPTIONS');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await res.json()).error.code).toBe('method_not_allowed');
  });

  it('answers an unknown path with 404 not_found in the envelope', async () => {
    const res = await unknownPath().GET(new NextRequest('http://x/v1/nope'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('/v1/nope') } });
  });
});
