/** Every action PRODUCT.md's audit log covers, `noun.verb`. Later features emit theirs from this list. */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.rolled',
  'api_key.updated',
  'api_key.revoked',
  'member.removed',
  'member.left',
  'bot.deleted',
  'user.suspended',
  'user.reactivated',
  'scim_token.created',
  'scim_token.revoked',
  'queue.created',
  'queue.updated',
  'queue.deleted',
  'subscription.updated',
  'subscription.paused',
  'subscription.resumed',
  'subscription.created',
  'subscription.deleted',
  'subscription.secret_rotated',
  'subscription.dead_letters_redriven',
  'subscription.dead_letter_discarded',
  'silence.created',
  'silence.updated',
  'silence.expired',
  'device_login.approved',
  'device_login.denied',
  'oauth_login.revoked',
  'sign_in.succeeded',
  'sign_in.failed',
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.reset',
  'passkey.added',
  'passkey.removed',
  'recovery_codes.regenerated',
  'recovery_code.used',
  'sudo.granted',
  'organization.updated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.disabled',
  'organization.created',
  'project.created',
  'project.updated',
  'invitation.created',
  'invitation.revoked',
  'invitation.resent',
  'invitation.accepted',
  'member.joined',
  'member.policies_changed',
  'bot.created',
  'bot.policies_changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Events webhooks carry that are data, not audit events: an alert's transitions, a subscription's health turns. */
export const DATA_EVENTS = [
  'alert.firing',
  'alert.resolved',
  'subscription.failing',
  'subscription.recovered',
] as const;

/** Every event a webhook endpoint can name: the audit actions, then the data events. */
export const WEBHOOK_EVENTS: readonly string[] = [...AUDIT_ACTIONS, ...DATA_EVENTS];

/** `reason` of `api_key.revoked`: by hand, or the cause of an automatic revocation. */
export const API_KEY_REVOCATION_REASONS = [
  'revoked',
  'member_removed',
  'member_left',
  'bot_deleted',
  'scim_suspended',
  'leaked',
  'rolled',
  'roll_grace_ended',
] as const;

export type ApiKeyRevocationReason = (typeof API_KEY_REVOCATION_REASONS)[number];

/** `reason` of `sign_in.failed`. The attempted password never appears anywhere. */
export const SIGN_IN_FAILURE_REASONS = ['wrong_password', 'user_suspended', 'second_factor'] as const;

export type SignInFailureReason = (typeof SIGN_IN_FAILURE_REASONS)[number];

/** The noun of every action (`api_key` of `api_key.revoked`), for the `api_key.*` filter. */
export function actionNoun(action: string): string {
  return action.slice(0, action.indexOf('.'));
}

/** What events are about: `target.type` of every event, and the list's `targetType` filter. */
export const AUDIT_TARGET_TYPES = [
  'api_key',
  'bot',
  'device_login',
  'invitation',
  'oauth_login',
  'organization',
  'passkey',
  'project',
  'queue',
  'scim_token',
  'silence',
  'subscription',
  'user',
  'webhook',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
