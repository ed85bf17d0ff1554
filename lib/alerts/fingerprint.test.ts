import { describe, expect, it } from 'vitest';
import { fingerprintOf } from './fingerprint';

// Expected values: prometheus/common's own test (model/signature_test.go, 5799056148416392346 = 0x507a62d79ee76c9a)
// and values computed the same way (FNV-1a 64 over sorted `name 0xFF value 0xFF` in UTF-8) by a separate script.
describe('fingerprintOf', () => {
  it('matches Alertmanager for the empty set and prometheus/common’s test labels', () => {
    expect(fingerprintOf({})).toBe('cbf29ce484222325');
    expect(fingerprintOf({ name: 'garland, briggs', fear: 'love is not enough' })).toBe('507a62d79ee76c9a');
  });

  it('matches for everyday, unicode and many labels, in any order', () => {
    expect(fingerprintOf({ severity: 'critical', alertname: 'DiskFull', instance: 'db-1:9100' })).toBe(
      'bafaf1f2a64a6f67',
    );
    expect(fingerprintOf({ alertname: 'Ünïcødé', team: '日本語', emoji: '🔥' })).toBe('bf0d2ca3e25e5bd2');
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`l${String(i).padStart(2, '0')}`, `v${i}`]));
    expect(fingerprintOf(many)).toBe('650f92cd29ae53df');
    expect(fingerprintOf(Object.fromEntries(Object.entries(many).reverse()))).toBe('650f92cd29ae53df');
  });

  it('is 16 lowercase hex digits, leading zeros kept', () => {
    expect(fingerprintOf({ alertname: 'a' })).toMatch(/^[0-9a-f]{16}$/);
  });
});
