import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal';
import { keyScopeMisses, keyScopeOf, type KeyRestrictions } from '../auth/key-scope';
import { ApiError } from '../errors';
import type { Permission } from '../permissions';
import { checkNeeds, checkOwnerRule, SELF_REFUSAL } from './needs';
import type { Needs, OwnerRule, ResourceOwner } from './operation';

const KEY_ID = '00000000-0000-4000-8000-000000000001';
const OTHER_KEY = '00000000-0000-4000-8000-000000000002';

function keyCaller(restrictions: Partial<KeyRestrictions>): Principal {
  const key = { permissions: null, projectIds: null, allowedIps: null, ...restrictions };
  return {
    type: 'user',
    id: 'bob',
    name: 'bob',
    via: 'api_key',
    apiKeyId: KEY_ID,
    keyScope: keyScopeOf({ ...key, createdAt: new Date(), expiresAt: null }, null),
  };
}

const session: Principal = { type: 'user', id: 'bob', name: 'bob', via: 'session' };

/** The owner holds everything; the key's restrictions decide at organization level, as hasPermission does. */
const canFor = (principal: Principal) => async (permission: Permission) =>
  !principal.keyScope || keyScopeMisses(principal.keyScope, permission, null) === null;
const refusal = async () => new ApiError('access_denied');

async function outcome(op: Needs, principal: Principal, params: Record<string, unknown> = {}) {
  try {
    await checkNeeds(op, principal, params, canFor(principal), refusal);
    return 'passes';
  } catch (err) {
    return (err as ApiError).code;
  }
}

const narrowed = keyCaller({ permissions: ['obs.silences.get'] });
const projectOnly = keyCaller({ projectIds: ['p1'] });
const addressOnly = keyCaller({ allowedIps: ['127.0.0.1/32'] });

describe('checkNeeds: the owner’s own doors', () => {
  const leave: Needs = { self: {} };
  const list: Needs = { self: { orPermission: 'apiKeys.list' } };
  const revoke: Needs = { self: { orPermission: 'apiKeys.delete', restrictedKeys: { ownKey: 'keyId' } } };
  const whoAmI: Needs = { self: { restrictedKeys: 'always' } };

  it('refuses a self operation to a key narrowed by permissions or by projects, with its message', async () => {
    for (const key of [narrowed, projectOnly]) {
      expect(await outcome(leave, key)).toBe('key_scope_insufficient');
      expect(await outcome(list, key)).toBe('key_scope_insufficient');
      expect(await outcome(revoke, key, { keyId: OTHER_KEY })).toBe('key_scope_insufficient');
    }
    await expect(checkNeeds(leave, narrowed, {}, canFor(narrowed), refusal)).rejects.toThrow(SELF_REFUSAL);
  });

  it('keeps the doors every key keeps: itself, what it is and may do', async () => {
    expect(await outcome(whoAmI, narrowed)).toBe('passes');
    expect(await outcome(revoke, narrowed, { keyId: KEY_ID })).toBe('passes');
    expect(await outcome(revoke, projectOnly, { keyId: KEY_ID })).toBe('passes');
  });

  it('lets a narrowed key through when it names the permission that reaches everyone’s', async () => {
    const admin = keyCaller({ permissions: ['apiKeys.list', 'apiKeys.delete'] });
    expect(await outcome(list, admin)).toBe('passes');
    expect(await outcome(revoke, admin, { keyId: OTHER_KEY })).toBe('passes');
    expect(await outcome(leave, admin)).toBe('key_scope_insufficient');
  });

  it('leaves the self doors open to sessions, unrestricted keys and keys restricted by address alone', async () => {
    for (const caller of [session, keyCaller({}), addressOnly]) {
      expect(await outcome(leave, caller)).toBe('passes');
      expect(await outcome(revoke, caller, { keyId: OTHER_KEY })).toBe('passes');
    }
  });
});

describe('checkNeeds: permissions', () => {
  it('checks the permission, and of several the one the key lacks speaks first', async () => {
    expect(await outcome({ permission: 'obs.silences.get' }, narrowed)).toBe('passes');
    expect(await outcome({ permission: 'obs.silences.update' }, narrowed)).toBe('access_denied');
    const keyFirst = async (p: Permission) =>
      new ApiError(p === 'obs.silences.update' ? 'key_scope_insufficient' : 'access_denied');
    await expect(
      checkNeeds(
        { anyPermission: ['obs.silences.create', 'obs.silences.update'] },
        narrowed,
        {},
        async () => false,
        keyFirst,
      ),
    ).rejects.toMatchObject({ code: 'key_scope_insufficient' });
  });
});

describe('checkOwnerRule: what acting on a resource needs, by its owner', () => {
  const holding =
    (...held: Permission[]) =>
    async (permission: Permission) =>
      held.includes(permission);
  const asCreating = (owner: ResourceOwner | null): OwnerRule<unknown, unknown> => ({
    find: async () => owner,
    missing: 'No such API key.',
    bot: 'bots.createApiKey',
    own: 'apiKeys.create',
    other: { refused: 'Nobody can change another user’s API key.' },
  });
  const revoke = (owner: ResourceOwner | null): OwnerRule<unknown, unknown> => ({
    find: async () => owner,
    other: 'apiKeys.delete',
  });
  async function ruled(rule: OwnerRule<unknown, unknown>, can = holding()) {
    try {
      await checkOwnerRule(rule, { params: {}, body: undefined, principal: session }, can, refusal);
      return 'passes';
    } catch (err) {
      return `${(err as ApiError).status} ${(err as ApiError).message}`;
    }
  }
  const bob = { type: 'user', id: 'bob' } as const;
  const ada = { type: 'user', id: 'ada' } as const;
  const bot = { type: 'bot', id: 'deploy' } as const;

  it('answers 404 with its message when there is no such resource, whatever the caller holds', async () => {
    expect(await ruled(asCreating(null), holding('apiKeys.create', 'bots.createApiKey'))).toBe('404 No such API key.');
    expect(await ruled(revoke(null), holding('apiKeys.delete'))).toBe('404 Not found.');
    const named: OwnerRule<unknown, unknown> = {
      ...revoke(null),
      missingFor: () => 'No API key k1 in this organization.',
    };
    expect(await ruled(named, holding('apiKeys.delete'))).toBe('404 No API key k1 in this organization.');
  });

  it('asks a bot’s resource for `bot`, one’s own for `own`, and refuses another user’s when the rule says so', async () => {
    expect(await ruled(asCreating(bot), holding('apiKeys.create'))).toMatch(/^403/);
    expect(await ruled(asCreating(bot), holding('bots.createApiKey'))).toBe('passes');
    expect(await ruled(asCreating(bob), holding('bots.createApiKey'))).toMatch(/^403/);
    expect(await ruled(asCreating(bob), holding('apiKeys.create'))).toBe('passes');
    expect(await ruled(asCreating(ada), holding('apiKeys.create', 'bots.createApiKey'))).toBe(
      '403 Nobody can change another user’s API key.',
    );
  });

  it('lets the owner act without a permission when `own` is absent; anyone else needs `other`', async () => {
    expect(await ruled(revoke(bob))).toBe('passes');
    expect(await ruled(revoke(ada))).toMatch(/^403/);
    expect(await ruled(revoke(bot))).toMatch(/^403/);
    expect(await ruled(revoke(bot), holding('apiKeys.delete'))).toBe('passes');
  });
});
