import NextAuth from 'next-auth';
import type { NextRequest } from 'next/server';
import { authOptions } from '@/lib/auth/next-auth';
import { watchingDatabaseFailures } from '@/lib/db/errors';
import { unavailableSignIn } from '@/lib/auth/next-auth-unavailable';

const handler = NextAuth(authOptions);

// next-auth turns its callbacks' errors into "sign-in failed"; an unavailable database is a 503 instead.
async function guarded(req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  const { result, unavailable } = await watchingDatabaseFailures<Response>(() => handler(req, ctx));
  return unavailable ? unavailableSignIn(req) : result;
}

export { guarded as GET, guarded as POST };
