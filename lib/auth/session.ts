import 'server-only';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { authOptions } from './next-auth';
import type { Principal } from './principal';
import { principalForSession } from './service';
import { isDatabaseUnavailable } from '../db/errors';

/** The signed-in user of a console page; sends everyone else (and ended sessions) to the sign-in page. */
export async function requireConsoleUser(returnTo = '/orgs'): Promise<Principal & { email: string }> {
  const session = await getServerSession(authOptions);
  const user = session?.user as { id?: string; sv?: number; sid?: string; email?: string } | undefined;
  if (!user?.id || typeof user.sv !== 'number' || !user.sid)
    redirect(`/login?callbackUrl=${encodeURIComponent(returnTo)}`);
  let principal: Principal | null;
  try {
    principal = await principalForSession(user.id, user.sv, user.sid);
  } catch (err) {
    // A page degrades to "try again" rather than a 500 while the database is unavailable.
    if (!isDatabaseUnavailable(err)) throw err;
    console.error('Console page: database unavailable:', err);
    redirect(`/unavailable?returnTo=${encodeURIComponent(returnTo)}`);
  }
  // Suspended, signed out, or every session ended (session version bumped): this cookie is no longer honoured.
  if (!principal) redirect('/login?reason=ended');
  return { ...principal, email: user.email ?? '' };
}
