import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { verifyPassword } from './password';
import { findUserByEmail, recordSignIn } from './service';
import { signInLimiter } from '../http/rate-limit';
import { auditContext } from '../audit/source';

type SessionClaims = { sub?: string; sv?: number };

const providers: AuthOptions['providers'] = [
  CredentialsProvider({
    id: 'credentials',
    name: 'Email and password',
    credentials: {
      email: { label: 'Email', type: 'email' },
      password: { label: 'Password', type: 'password' },
    },
    async authorize(credentials, req) {
      const email = credentials?.email?.trim().toLowerCase() ?? '';
      const password = credentials?.password ?? '';
      const forwarded = (req?.headers?.['x-forwarded-for'] as string | undefined)?.split(',')[0]?.trim();
      // Sign-in is limited per client address and per email, so neither can be brute-forced.
      if (
        !(await signInLimiter.allow(`ip:${forwarded ?? 'local'}`)) ||
        !(await signInLimiter.allow(`email:${email}`))
      ) {
        throw new Error('Too many sign-in attempts. Wait a minute and try again.');
      }
      if (!email || !password || email.length > 320 || password.length > 1024) return null;
      const user = await findUserByEmail(email);
      const ok = await verifyPassword(user?.passwordHash ?? null, password);
      if (!user) return null;
      const context = auditContext({ headers: new Headers(req?.headers as Record<string, string> | undefined) }, null);
      if (!ok || user.status !== 'active') {
        await recordSignIn(user, 'failed', ok ? 'user_suspended' : 'wrong_password', context);
        return null;
      }
      await recordSignIn(user, 'succeeded', 'password', context);
      return { id: user.id, email: user.email, name: user.name, sv: user.sessionVersion } as never;
    },
  }),
];

// Single sign-on: any OIDC provider, switched on by three environment variables.
if (process.env.OIDC_ISSUER && process.env.OIDC_CLIENT_ID && process.env.OIDC_CLIENT_SECRET) {
  providers.push({
    id: 'oidc',
    name: process.env.OIDC_NAME ?? 'Single sign-on',
    type: 'oauth',
    wellKnown: `${process.env.OIDC_ISSUER.replace(/\/$/, '')}/.well-known/openid-configuration`,
    clientId: process.env.OIDC_CLIENT_ID,
    clientSecret: process.env.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: 'openid email profile' } },
    idToken: true,
    checks: ['pkce', 'state'],
    profile: (profile: { sub: string; email: string; name?: string }) => ({
      id: profile.sub,
      email: profile.email,
      name: profile.name ?? profile.email,
    }),
  });
}

export const authOptions: AuthOptions = {
  providers,
  session: { strategy: 'jwt', maxAge: 12 * 60 * 60 },
  pages: { signIn: '/login' },
  callbacks: {
    async signIn({ user, account }) {
      if (account?.provider === 'credentials') return true;
      // SSO signs in only people the organization already provisioned (SCIM or an admin), and only while active.
      const known = user.email ? await findUserByEmail(user.email) : null;
      if (!known) return false;
      const context = { requestId: null, ip: null, userAgent: null };
      if (known.status === 'active') await recordSignIn(known, 'succeeded', 'single_sign_on', context);
      else await recordSignIn(known, 'failed', 'user_suspended', context);
      return known.status === 'active';
    },
    async jwt({ token, user, account }) {
      const claims = token as typeof token & SessionClaims;
      if (user && account?.provider === 'credentials') {
        claims.sub = user.id;
        claims.sv = (user as unknown as { sv: number }).sv;
      } else if (user && user.email) {
        const known = await findUserByEmail(user.email);
        if (known) {
          claims.sub = known.id;
          claims.sv = known.sessionVersion;
        }
      }
      return claims;
    },
    async session({ session, token }) {
      const claims = token as SessionClaims;
      return { ...session, user: { ...session.user, id: claims.sub, sv: claims.sv } } as typeof session;
    },
  },
};

export function sessionClaims(token: unknown): { userId: string; sessionVersion: number } | null {
  const claims = token as SessionClaims | null;
  if (!claims?.sub || typeof claims.sv !== 'number') return null;
  return { userId: claims.sub, sessionVersion: claims.sv };
}
