/**
 * What single sign-on asks of invitations without importing them (docs/architecture.md, "Floors"): server/hooks.ts
 * registers the onboarding feature's answer. An unknown email signing in with OIDC for the first time is made a user
 * and joins when it has a pending invitation; without one (or without the hook) the sign-in is refused as before.
 */
export type JoinByInvitation = (email: string, name: string) => Promise<boolean>;

// On globalThis: next-auth's route and the server module may each load their own copy of this module.
const slot = globalThis as unknown as { __svcJoinByInvitation?: JoinByInvitation };

export function registerJoinByInvitation(join: JoinByInvitation): void {
  slot.__svcJoinByInvitation = join;
}

export function joinByInvitation(email: string, name: string): Promise<boolean> {
  return slot.__svcJoinByInvitation?.(email, name) ?? Promise.resolve(false);
}
