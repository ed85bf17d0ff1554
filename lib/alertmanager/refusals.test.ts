import { describe, expect, it } from 'vitest';
import { keyScopeMisses, keyScopeOf, UNRESTRICTED } from '../auth/key-scope';
import { refusalWords, rolesGranting } from './refusals';

const bot = { type: 'bot' as const, name: 'prometheus-prod', via: 'api_key' as const };
const person = { type: 'user' as const, name: 'Ivy Invited', via: 'api_key' as const };
const updateOnly = keyScopeOf(
  { ...UNRESTRICTED, permissions: ['obs.silences.update'], createdAt: new Date(), expiresAt: null },
  null,
);

describe('the Alertmanager family says what a refused request lacks, and the fix', () => {
  it("names the permission a key's restrictions leave out, why amtool needs it, and what key would do", () => {
    const misses = keyScopeMisses(updateOnly, 'obs.silences.get', 'p1');
    expect(refusalWords(person, 'obs.silences.get', misses, 'amtool reads a silence before it updates it')).toBe(
      'This API key is restricted to permissions that do not include obs.silences.get; amtool reads a silence before ' +
        'it updates it. Use a key whose restrictions include obs.silences.get in this project.',
    );
  });

  it('names the owner who lacks the permission and the roles that grant it', () => {
    expect(refusalWords(bot, 'obs.silences.create', null)).toBe(
      "Access denied: the bot prometheus-prod (this API key's owner) does not hold obs.silences.create in this " +
        'project. An administrator can give it a role that grants it: SilencesEditor.',
    );
    expect(refusalWords({ ...person, via: 'oauth' }, 'obs.alerts.create', null, 'why')).toBe(
      "Access denied: Ivy Invited (this OAuth token's user) does not hold obs.alerts.create in this project; why. " +
        'An administrator can give them a role that grants it: AlertSender.',
    );
  });

  it('offers the narrowest roles first, and OrganizationAdmin only when no other grants it', () => {
    expect(rolesGranting('obs.silences.get')).toEqual(['BasicAccess']);
    expect(rolesGranting('queues.queues.get')).toEqual(['QueuePublisher', 'BasicAccess']);
    expect(rolesGranting('orgs.update')).toEqual(['OrganizationAdmin']);
  });
});
