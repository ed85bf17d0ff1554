import { NextResponse, type NextRequest } from 'next/server';
import { newRequestId } from './lib/http/request';
import { isApiPath, rawUrlRefusal } from './lib/http/raw-url';

/** API paths: only a URL Next itself cannot decode. Console pages: a CSP nonce and a request id. */
export function proxy(request: NextRequest) {
  if (isApiPath(request.nextUrl.pathname)) return apiUrlCheck(request);
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const dev = process.env.NODE_ENV !== 'production';
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const requestId = newRequestId();
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  headers.set('x-request-id', requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  response.headers.set('x-request-id', requestId);
  return response;
}

function apiUrlCheck(request: NextRequest) {
  const refusal = rawUrlRefusal(new URL(request.url));
  if (!refusal) return NextResponse.next();
  const requestId = `req_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const { error } = refusal;
  const body =
    refusal.protocol === 'v1'
      ? error.body()
      : refusal.protocol === 'scim'
        ? {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
            status: String(error.status),
            detail: error.message,
          }
        : { error: 'invalid_request', error_description: error.message };
  return NextResponse.json(body, {
    status: error.status,
    headers: { 'x-request-id': requestId, 'cache-control': 'no-store' },
  });
}

export const config = {
  matcher: [
    // API paths only when they hold a percent-escape: none other can be one Next fails to decode.
    '/:api(v1|scim|oauth)/:path(.*%.*)',
    {
      // The API paths, the Alertmanager family and /api/auth set their own headers (a request id of the proxy's
      // would replace the one their log line names); static assets need none.
      source: '/((?!(?:v1|scim|oauth|api|alertmanager)(?:/|$)|_next/static|_next/image|favicon.ico).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
