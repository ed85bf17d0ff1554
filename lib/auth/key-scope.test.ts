import { describe, expect, it } from 'vitest';
import { addressInRanges, canonicalIpRange, parseClientAddress, parseIpRange, rangeWithin } from './ip-ranges';
import { keyAllowsAddress, keyScopeMisses, keyScopeOf, policyViolations } from './key-scope';
import { keyPolicyIssues } from './key-policy';

const DAY = 86_400_000;
const open = { permissions: null, projectIds: null, allowedIps: null, createdAt: new Date(0), expiresAt: null };

describe('IP ranges', () => {
  it('takes CIDRs and bare addresses, folds IPv4-mapped IPv6 and clears host bits', () => {
    expect(canonicalIpRange('198.51.100.7')).toBe('198.51.100.7/32');
    expect(canonicalIpRange('203.0.113.9/24')).toBe('203.0.113.0/24');
    expect(canonicalIpRange('2001:db8::5/32')).toBe('2001:db8::/32');
    expect(canonicalIpRange('::1')).toBe('::1/128');
    expect(canonicalIpRange('::ffff:198.51.100.7')).toBe('198.51.100.7/32');
    expect(canonicalIpRange('::ffff:198.51.100.0/120')).toBe('198.51.100.0/24');
  });

  it('refuses what is not a strict address or range', () => {
    for (const bad of [
      '',
      '127.1',
      '0x7f.0.0.1',
      '1.2.3.4/33',
      '1.2.3.4/',
      '::/129',
      '1.2.3.4/24/1',
      'fe80::1%eth0',
      'a',
    ])
      expect(parseIpRange(bad), bad).toBeNull();
  });

  it('matches IPv4, IPv6 and mapped client addresses, and nothing for an unknown one', () => {
    const ranges = ['203.0.113.0/24', '2001:db8::/32'].map((r) => parseIpRange(r)!);
    expect(addressInRanges(parseClientAddress('203.0.113.200'), ranges)).toBe(true);
    expect(addressInRanges(parseClientAddress('::ffff:203.0.113.1'), ranges)).toBe(true);
    expect(addressInRanges(parseClientAddress('2001:db8:1::9'), ranges)).toBe(true);
    expect(addressInRanges(parseClientAddress('203.0.114.1'), ranges)).toBe(false);
    expect(addressInRanges(parseClientAddress('2001:db9::1'), ranges)).toBe(false);
    expect(addressInRanges(parseClientAddress('unknown'), ranges)).toBe(false);
  });

  it('knows when one range lies inside another', () => {
    const outer = [parseIpRange('10.0.0.0/8')!];
    expect(rangeWithin(parseIpRange('10.1.0.0/16')!, outer)).toBe(true);
    expect(rangeWithin(parseIpRange('0.0.0.0/0')!, outer)).toBe(false);
    expect(rangeWithin(parseIpRange('::ffff:10.0.0.1')!, outer)).toBe(true);
  });
});

describe('key scope', () => {
  const scope = keyScopeOf({ ...open, permissions: ['obs.silences.list'], projectIds: ['p1'] }, null);

  it('names what the restriction lacks: the permission, the project, or organization level', () => {
    expect(keyScopeMisses(scope, 'obs.silences.list', 'p1')).toBeNull();
    expect(keyScopeMisses(scope, 'obs.silences.update', 'p1')).toContain('obs.silences.update');
    expect(keyScopeMisses(scope, 'obs.silences.list', 'p2')).toContain('p2');
    expect(keyScopeMisses(scope, 'obs.silences.list', null)).toContain('organization level');
    expect(keyScopeMisses(keyScopeOf(open, null), 'members.delete', null)).toBeNull();
  });

  it('checks the client address only when the key has ranges', () => {
    expect(keyAllowsAddress(keyScopeOf(open, null), 'unknown')).toBe(true);
    const narrowed = keyScopeOf({ ...open, allowedIps: ['127.0.0.1/32'] }, null);
    expect(keyAllowsAddress(narrowed, '::ffff:127.0.0.1')).toBe(true);
    expect(keyAllowsAddress(narrowed, '127.0.0.2')).toBe(false);
  });

  it('finds each policy rule a key breaks', () => {
    const policy = { maxLifetimeDays: 30, requireRestrictions: true, allowedIps: ['10.0.0.0/8'] };
    expect(policyViolations(open, policy)).toEqual(['maxLifetimeDays', 'requireRestrictions', 'allowedIps']);
    const kept = { ...open, expiresAt: new Date(30 * DAY), allowedIps: ['10.2.0.0/16'] };
    expect(policyViolations(kept, policy)).toEqual([]);
    expect(policyViolations({ ...kept, expiresAt: new Date(31 * DAY) }, policy)).toEqual(['maxLifetimeDays']);
    expect(policyViolations(open, null)).toEqual([]);
  });

  it('puts each policy refusal at the field to fix', () => {
    const policy = { maxLifetimeDays: 30, requireRestrictions: true, allowedIps: ['10.0.0.0/8'] };
    const key = { permissions: null, projectIds: null, allowedIps: ['10.0.0.0/8', '192.0.2.0/24'], lifetimeDays: 90 };
    expect(keyPolicyIssues(key, policy).map((i) => i.path)).toEqual(['expiresInDays', 'allowedIps.1']);
    const bare = { permissions: null, projectIds: null, allowedIps: null, lifetimeDays: 30 };
    expect(keyPolicyIssues(bare, policy).map((i) => i.path)).toEqual(['permissions', 'allowedIps']);
  });
});
