import 'server-only';
import { headers } from 'next/headers';
import { publicOrigin } from '@/lib/http/public-origin';

/** The origin a page's reader reaches the console at (APP_URL or NEXTAUTH_URL, else the request's), for URLs it shows. */
export async function consoleOrigin(): Promise<string> {
  const incoming = await headers();
  return publicOrigin(new Request(`http://${incoming.get('host') ?? '127.0.0.1'}/`, { headers: incoming }));
}
