import 'server-only';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { authOptions } from './next-auth';
import type { Principal } from './principal';
import { principalForSession } from './service';

/** The signed-in user of a console page; sends everyone else (and ended sessions) to the sign-in page. */
export async function requireConsoleUser(returnTo = '/orgs'): Promise<Principal & { email: string }> {
  const session = await getServerSession(authOptions);
  const user = session?.user as { id?: string; sv?: number; email?: string } | undefined;
  if (!user?.id || typeof user.sv !== 'number') redirect(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
  const principal = await principalForSession(user.id, user.sv);
  // Suspended, or every session ended (session version bumped): this cookie is no longer honoured.
  if (!principal) redirect('/login?reason=ended');
  return { ...principal, email: user.email ?? '' };
}
