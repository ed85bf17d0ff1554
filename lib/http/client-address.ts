/** The first address of X-Forwarded-For (set by Next from the socket when no proxy sent one), as sign-in uses. */
export function clientAddress(req: Pick<Request, 'headers'>): string {
  return req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'local';
}
