import type { NextRequest } from 'next/server';
import { allowHeader } from '../pipeline/methods';
import { ApiError, notFound } from '../errors';
import { ALERTMANAGER_HANDLERS } from './handlers';
import { alertmanagerOperations } from './operations';
import { admitRequest } from '../pipeline/pipeline';
import { alertmanagerContext, alertmanagerDoor, serveAlertmanager, type AmOperation } from './route';

/** An operation's path template as a pattern: `{name}` is one path segment, captured by name. */
const patternOf = (op: AmOperation) =>
  new RegExp(`^${op.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)').replaceAll('/', '\\/')}$`);

const ROUTES = alertmanagerOperations.map((op) => ({ op, pattern: patternOf(op), door: alertmanagerDoor(op) }));

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The whole family behind one catch-all route file, dispatched from the operations (the data that also makes
 * its OpenAPI document): an unknown path is 404 and a known path's other method 405, both as JSON.
 */
export function alertmanagerRequest(req: NextRequest): Promise<Response> {
  const pathname = req.nextUrl.pathname;
  const matching = ROUTES.flatMap(({ op, pattern, door }) => {
    const groups = pattern.exec(pathname)?.groups;
    return groups ? [{ op, door, groups }] : [];
  });
  // The log line and the metrics name the request by its method and path template (never the path, whose ids
  // are unbounded), or by the family's name for a path it does not have.
  const label = { method: req.method, route: matching[0]?.op.path ?? 'alertmanager' };
  return serveAlertmanager(async (requestId) => {
    if (matching.length === 0) throw notFound('not found');
    const found = matching.find(({ op }) => op.method === req.method);
    if (!found) {
      const allow = allowHeader(matching.map(({ op }) => op));
      throw new ApiError('method_not_allowed', `${req.method} is not allowed here`, { headers: { allow } });
    }
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(found.groups)) {
      const value = safeDecode(raw);
      if (value === null) throw notFound('not found');
      params[name] = value;
    }
    const handler = ALERTMANAGER_HANDLERS.get(found.op);
    if (!handler) throw new Error(`${found.op.method} ${found.op.path} has no handler`);
    // The checks are the pipeline's, in its order; only the dispatch above is the family's.
    const passed = await admitRequest(found.door, req, params, requestId);
    return handler(alertmanagerContext(found.op, passed, req));
  }, label);
}
