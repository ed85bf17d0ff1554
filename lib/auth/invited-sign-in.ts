import { hook } from '../hooks';

/**
 * What single sign-on asks of invitations without importing them (docs/architecture.md, "Floors"): server/hooks.ts
 * registers the onboarding feature's answer. An unknown email signing in with OIDC for the first time is made a user
 * and joins when it has a pending invitation; without one (or without the hook) the sign-in is refused as before.
 */
export type JoinByInvitation = (email: string, name: string) => Promise<boolean>;

const join = hook<JoinByInvitation>('join by invitation');

export const registerJoinByInvitation = join.register;

export function joinByInvitation(email: string, name: string): Promise<boolean> {
  return join.find()?.(email, name) ?? Promise.resolve(false);
}
