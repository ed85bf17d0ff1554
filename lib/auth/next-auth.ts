import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { verifyPassword } from './password';
import { randomUUID } from 'node:crypto';
import { endSession, findUserByEmail, findUserById, recordSignIn } from './service';
import { signInLimiter } from '../http/rate-limit';
import { clientAddress } from '../http/public-origin';
import { noteDatabaseFailure } from '../db/errors';
import { textProblem } from '../http/text';
import { auditContext, userActor } from '../audit/source';
import { signInFactors } from './sign-in-factors';
import { joinByInvitation } from './invited-sign-in';
import { SECOND_FACTOR_REQUIRED, SECOND_FACTOR_WRONG } from './sign-in-schema';
import { settings } from '../settings/settings';

type SessionClaims = { sub?: string; sv?: number; sid?: string; exp?: number };

const MAX_AGE_SECONDS = 12 * 60 * 60;

const providers: AuthOptions['providers'] = [
  CredentialsProvider({
    id: 'credentials',
    name: 'Email and password',
    credentials: {
      email: { label: 'Email', type: 'email' },
      password: { label: 'Password', type: 'password' },
      code: { label: 'Code', type: 'text' },
    },
    async authorize(credentials, req) {
      const email = credentials?.email?.trim().toLowerCase() ?? '';
      const password = credentials?.password ?? '';
      const address = clientAddress(new Headers(req?.headers as Record<string, string> | undefined));
      // Sign-in is limited per client address and per email, so neither can be brute-forced.
      const tooMany = () => new Error('Too many sign-in attempts. Wait a minute and try again.');
      if (!(await signInLimiter.allow(`ip:${address}`))) throw tooMany();
      // Text no account can have (a NUL, a lone surrogate) is a failed sign-in, never a database error.
      if (!email || !password || email.length > 320 || password.length > 1024) return null;
      if (textProblem(email) || textProblem(password)) return null;
      if (!(await signInLimiter.allow(`email:${email}`))) throw tooMany();
      const user = await findUserByEmail(email).catch(noteDatabaseFailure);
      const ok = await verifyPassword(user?.passwordHash ?? null, password);
      if (!user) return null;
      const context = auditContext({ headers: new Headers(req?.headers as Record<string, string> | undefined) }, null);
      if (!ok || user.status !== 'active') {
        await recordSignIn(user, 'failed', ok ? 'user_suspended' : 'wrong_password', context);
        return null;
      }
      // The second step: a user with a second factor gets a session only with a code that checks out.
      if (await signInFactors().required(user.id)) {
        const code = credentials?.code?.trim() ?? '';
        if (!code) throw new Error(SECOND_FACTOR_REQUIRED);
        const source = { actor: userActor(user, null), context };
        if (!(await signInFactors().verifyCode(user, code, source))) {
          await recordSignIn(user, 'failed', 'second_factor', context);
          throw new Error(SECOND_FACTOR_WRONG);
        }
      }
      await recordSignIn(user, 'succeeded', 'password', context);
      return { id: user.id, email: user.email, name: user.name, sv: user.sessionVersion } as never;
    },
  }),
  CredentialsProvider({
    id: 'passkey',
    name: 'Passkey',
    credentials: { response: { label: 'Passkey response', type: 'text' } },
    async authorize(credentials, req) {
      const headers = new Headers(req?.headers as Record<string, string> | undefined);
      if (!(await signInLimiter.allow(`ip:${clientAddress(headers)}`)))
        throw new Error('Too many sign-in attempts. Wait a minute and try again.');
      let response: unknown;
      try {
        response = JSON.parse(credentials?.response ?? '');
      } catch {
        return null;
      }
      const userId = await signInFactors().verifyPasskey(response).catch(noteDatabaseFailure);
      const user = userId ? await findUserById(userId).catch(noteDatabaseFailure) : null;
      if (!user || user.status !== 'active') return null;
      await recordSignIn(user, 'succeeded', 'passkey', auditContext({ headers }, null));
      return { id: user.id, email: user.email, name: user.name, sv: user.sessionVersion } as never;
    },
  }),
];

/** Providers whose `authorize` returns the user with its session version (everything but single sign-on). */
const OWN_PROVIDERS = new Set(['credentials', 'passkey']);

// Single sign-on: any OIDC provider, switched on by three environment variables.
const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME } = settings();
if (OIDC_ISSUER && OIDC_CLIENT_ID && OIDC_CLIENT_SECRET) {
  providers.push({
    id: 'oidc',
    name: OIDC_NAME,
    type: 'oauth',
    wellKnown: `${OIDC_ISSUER.replace(/\/$/, '')}/.well-known/openid-configuration`,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
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
  session: { strategy: 'jwt', maxAge: MAX_AGE_SECONDS },
  pages: { signIn: '/login' },
  events: {
    async signOut({ token }) {
      const claims = sessionClaims(token);
      if (!claims) return;
      const exp = (token as SessionClaims).exp;
      const expiresAt = new Date(exp ? exp * 1000 : Date.now() + MAX_AGE_SECONDS * 1000);
      await endSession(claims.userId, claims.sessionId, expiresAt).catch(noteDatabaseFailure);
    },
  },
  callbacks: {
    async signIn({ user, account }) {
      if (account && OWN_PROVIDERS.has(account.provider)) return true;
      // SSO signs in only people provisioned (SCIM, an admin, an invitation), and only while active.
      let known = user.email ? await findUserByEmail(user.email).catch(noteDatabaseFailure) : null;
      // An invited email signing in for the first time is made a user and joins (PRODUCT.md, "Invitations").
      if (
        !known &&
        user.email &&
        (await joinByInvitation(user.email, user.name ?? user.email).catch(noteDatabaseFailure))
      )
        known = await findUserByEmail(user.email).catch(noteDatabaseFailure);
      if (!known) return false;
      const context = { requestId: null, ip: null, userAgent: null };
      if (known.status === 'active') await recordSignIn(known, 'succeeded', 'single_sign_on', context);
      else await recordSignIn(known, 'failed', 'user_suspended', context);
      return known.status === 'active';
    },
    async jwt({ token, user, account }) {
      const claims = token as typeof token & SessionClaims;
      // Each sign-in is its own session, which signing out ends on the server (see events.signOut).
      if (user) claims.sid = randomUUID();
      if (user && account && OWN_PROVIDERS.has(account.provider)) {
        claims.sub = user.id;
        claims.sv = (user as unknown as { sv: number }).sv;
      } else if (user && user.email) {
        const known = await findUserByEmail(user.email).catch(noteDatabaseFailure);
        if (known) {
          claims.sub = known.id;
          claims.sv = known.sessionVersion;
        }
      }
      // A sign-in opens the session's sudo window: a person who just proved who they are is not asked again.
      if (user && claims.sub && claims.sid)
        await signInFactors().openSudo(claims.sub, claims.sid).catch(noteDatabaseFailure);
      return claims;
    },
    async session({ session, token }) {
      const claims = token as SessionClaims;
      return {
        ...session,
        user: { ...session.user, id: claims.sub, sv: claims.sv, sid: claims.sid },
      } as typeof session;
    },
  },
};

/** The claims a session is checked by; a token without a session id (issued before sign-out existed) is refused. */
export function sessionClaims(token: unknown): { userId: string; sessionVersion: number; sessionId: string } | null {
  const claims = token as SessionClaims | null;
  if (!claims?.sub || typeof claims.sv !== 'number' || typeof claims.sid !== 'string') return null;
  return { userId: claims.sub, sessionVersion: claims.sv, sessionId: claims.sid };
}
