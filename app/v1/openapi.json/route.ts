import { buildOpenApiDocument } from '@/lib/pipeline/openapi';
import { json, publicRoute } from '@/lib/pipeline/route';
import { allOperations, openApiOp } from '@/server/operations';
import { otherMethods } from '@/lib/pipeline/methods';

let document: unknown;

export const GET = publicRoute(openApiOp, async () => {
  document ??= buildOpenApiDocument(allOperations);
  return json(document, { headers: { 'cache-control': 'public, max-age=300' } });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(openApiOp);
