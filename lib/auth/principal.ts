import type { KeyScope } from './key-scope';

/** Who is making a request, as established by one of the three schemes of the spec. */
export type Principal = {
  type: 'user' | 'bot';
  id: string;
  name: string;
  /** How the caller proved who it is. API keys cannot create API keys; only cookies are origin-checked. */
  via: 'session' | 'api_key' | 'oauth';
  /** The API key used, when `via` is `api_key`. */
  apiKeyId?: string;
  /** That key's display prefix (`svc_ab12`), for the audit log. */
  apiKeyPrefix?: string;
  /** The key's restrictions and policy verdict (`via: api_key`); absent for every other credential. */
  keyScope?: KeyScope;
  /** The console session (`via: session`): its sudo window lives in the database under this id. */
  sessionId?: string;
  /** An API key (and any bot) acts in exactly one organization; sessions and OAuth tokens in all of the user's. */
  organizationId?: string;
};

/** The stable identity a rate limit or idempotency record is scoped to. */
export function principalKey(p: Pick<Principal, 'type' | 'id'>): string {
  return `${p.type}:${p.id}`;
}
