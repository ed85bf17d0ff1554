import { clientAddress as addressOf } from './public-origin';

/** The client's address of a request, as the per-address limits see it (TRUST_PROXY decides). */
export function clientAddress(req: Pick<Request, 'headers'>): string {
  return addressOf(req.headers);
}
