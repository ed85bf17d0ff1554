import { notFound, type ApiError } from '../errors';

const PROTOCOLS = /^\/(v1|scim|oauth)(\/|$)/;

/** Whether a path is the API's (`/v1`, SCIM, OAuth) rather than a console page's. */
export function isApiPath(pathname: string): boolean {
  return PROTOCOLS.test(pathname);
}

function malformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * An API path whose percent-escapes are not UTF-8 (`/v1/x%FF`): Next answers those with a bare 500 before
 * any route runs, so the proxy answers 404 first, in the protocol's format. Null for every other URL.
 */
export function rawUrlRefusal(url: URL): { protocol: string; error: ApiError } | null {
  const protocol = PROTOCOLS.exec(url.pathname)?.[1];
  if (!protocol || !malformedPath(url.pathname)) return null;
  return { protocol, error: notFound('No resource at this path: its percent-escapes are not UTF-8.') };
}
