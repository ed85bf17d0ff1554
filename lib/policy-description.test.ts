import { describe, expect, it } from 'vitest';
import { describePermissions, describePolicy, listInWords } from './policy-description';
import { POLICIES } from './permissions';

describe('describePolicy', () => {
  it('says what each policy grants from its permission names', () => {
    expect(describePolicy('SilencesEditor')).toBe('create and update silences');
    expect(describePolicy('Auditor')).toBe('read the audit log');
    expect(describePolicy('BotAdmin')).toBe('create and delete bots; create API keys for bots');
    expect(describePolicy('MemberAdmin')).toBe('read, invite, update and delete members');
    expect(describePolicy('OrganizationAdmin')).toBe('every permission there is');
    expect(describePolicy('BasicAccess')).toBe(
      'create API keys; read bots, projects, subscriptions, queues, silences and alerts',
    );
  });

  it('describes a permission it has no word for by its name', () => {
    expect(describePermissions(['queues.messages.publish', 'queues.queues.get'])).toBe('publish messages; read queues');
    expect(describePermissions(['widgets.frobnicate', 'widgets.list', 'widgets.fooBar'])).toBe(
      'read, frobnicate and foo bar widgets',
    );
  });

  it('describes every policy, and no unknown one', () => {
    for (const policy of Object.keys(POLICIES)) expect(describePolicy(policy)).toMatch(/^[a-z]/);
    expect(describePolicy('NoSuchPolicy')).toBeNull();
  });

  it('lists in words', () => {
    expect(listInWords([])).toBe('');
    expect(listInWords(['a'])).toBe('a');
    expect(listInWords(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
