import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertmanagerOperations } from '../alertmanager/operations';
import { allOperations } from '../../server/operations';
import { buildAlertmanagerDocument } from '../alertmanager/openapi';
import { buildOpenApiDocument } from './openapi';
import { OPENAPI_TAGS } from './openapi-tags';

const root = path.resolve(__dirname, '../../app/v1');

/** Every (METHOD, /v1/path) that a route file under app/v1 exports. */
function routeFiles(dir = root): { method: string; path: string }[] {
  const found: { method: string; path: string }[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...routeFiles(full));
    else if (entry === 'route.ts') {
      const urlPath =
        '/v1' +
        path
          .relative(root, dir)
          .split(path.sep)
          .map((s) => s.replace(/^\[(.+)\]$/, '{$1}'))
          .map((s) => `/${s}`)
          .join('');
      const source = readFileSync(full, 'utf8');
      for (const m of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g))
        found.push({ method: m[1], path: urlPath.replace(/\/$/, '') });
    }
  }
  return found;
}

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(allOperations) as unknown as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
  };

  it('is OpenAPI 3.1 and lists every route that exists under app/v1', () => {
    expect(doc.openapi).toBe('3.1.0');
    const routes = routeFiles();
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      expect(
        doc.paths[route.path]?.[route.method.toLowerCase()],
        `${route.method} ${route.path} is missing from the document`,
      ).toBeDefined();
    }
  });

  it('lists no operation that has no route', () => {
    const routes = new Set(routeFiles().map((r) => `${r.method} ${r.path}`));
    for (const op of allOperations)
      expect(routes.has(`${op.method} ${op.path}`), `${op.method} ${op.path} has no route file`).toBe(true);
  });

  it('documents the error envelope on every operation', () => {
    for (const [p, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const responses = (op as { responses: Record<string, { content?: Record<string, { schema: unknown }> }> })
          .responses;
        const errors = Object.keys(responses).filter((s) => Number(s) >= 400);
        expect(errors.length, `${method} ${p}`).toBeGreaterThan(0);
        for (const status of errors) {
          expect(JSON.stringify(responses[status].content?.['application/json']?.schema)).toContain(
            '#/components/schemas/Error',
          );
        }
      }
    }
  });

  it("prints each operation's accepted credentials and tenant scope", () => {
    type Op = { security?: Record<string, string[]>[]; 'x-tenant-scope'?: string };
    const op = (p: string, m: string) => doc.paths[p][m] as Op;
    expect(op('/v1/health', 'get').security).toEqual([]);
    expect(op('/v1/device-authorizations/{userCode}/approve', 'post').security).toEqual([{ session: [] }]);
    expect(op('/v1/organizations/{orgId}/api-keys', 'post').security).toEqual([{ session: [] }, { oauth: [] }]);
    expect(op('/v1/organizations/{orgId}/api-keys', 'get').security).toHaveLength(3);
    expect(op('/v1/organizations/{orgId}/api-keys', 'get')['x-tenant-scope']).toBe('organization');
    expect(op('/v1/organizations', 'get')['x-tenant-scope']).toBe('none');
  });
});

describe("the documents' conventions (what Spectral and Redocly check, held for every new operation)", () => {
  const families = [
    ['/v1', allOperations, buildOpenApiDocument(allOperations)],
    ['Alertmanager', alertmanagerOperations, buildAlertmanagerDocument(alertmanagerOperations)],
  ] as const;

  it.each(families)('%s: every operation has a description and only declared tags', (_, operations, built) => {
    const doc = built as unknown as { paths: Record<string, Record<string, { description?: string }>> };
    for (const op of operations) {
      const described = doc.paths[op.path][op.method.toLowerCase()].description;
      expect(described?.trim(), `${op.method} ${op.path} needs a description`).toBeTruthy();
      for (const tag of op.tags)
        expect(OPENAPI_TAGS[tag], `tag ${tag} of ${op.path}: add it to OPENAPI_TAGS`).toBeDefined();
    }
  });

  it.each(families)('%s: servers, contact, license, declared tags and a 4xx on every operation', (_, __, built) => {
    const doc = built as unknown as {
      info: { contact?: object; license?: { name: string } };
      servers?: { url: string }[];
      tags?: { name: string; description: string }[];
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>>;
    };
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.info.contact).toBeDefined();
    expect(doc.info.license?.name).toBeTruthy();
    const declared = new Set(doc.tags?.map((t) => t.name));
    for (const [p, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods)) {
        for (const tag of op.tags) expect(declared.has(tag), `${method} ${p}: tag ${tag}`).toBe(true);
        expect(
          Object.keys(op.responses).some((s) => /^4\d\d$/.test(s)),
          `${method} ${p} has no 4xx`,
        ).toBe(true);
      }
  });

  it('describes the Alertmanager errors as a JSON string, and offers Basic beside the bearer schemes', () => {
    const doc = buildAlertmanagerDocument(alertmanagerOperations) as unknown as {
      paths: Record<
        string,
        Record<string, { security: Record<string, string[]>[]; responses: Record<string, unknown> }>
      >;
    };
    const post = doc.paths['/alertmanager/{orgId}/{projectId}/api/v2/silences'].post;
    expect(post.security).toEqual([{ apiKey: [] }, { basicApiKey: [] }, { oauth: [] }]);
    expect(JSON.stringify(post.responses['404'])).toContain('#/components/schemas/AlertmanagerError');
    expect(Object.keys(post.responses)).not.toContain('412');
  });
});
