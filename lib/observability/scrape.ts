import { createHash, timingSafeEqual } from 'node:crypto';
import { registry } from './metrics';
import { settings } from '../settings/settings';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries METRICS_TOKEN; digests compared in constant time. */
function bearerMatches(header: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return !!match && timingSafeEqual(digest(match[1]), digest(token));
}

const plain = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

/**
 * `GET /metrics`: Prometheus text, only when METRICS_TOKEN is set (404 otherwise, as for any unknown path)
 * and only for `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).
 */
export async function scrape(req: Request): Promise<Response> {
  const token = settings().METRICS_TOKEN;
  if (!token) return plain(404, 'Not Found');
  if (!bearerMatches(req.headers.get('authorization'), token))
    return plain(401, 'A valid bearer token (METRICS_TOKEN) is required.', {
      'www-authenticate': 'Bearer realm="metrics"',
    });
  return new Response(await registry.metrics(), {
    headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
  });
}
