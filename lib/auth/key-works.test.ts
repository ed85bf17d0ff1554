import { describe, expect, it } from 'vitest';
import { keyWorksAt } from './service';

describe('keyWorksAt', () => {
  const at = new Date('2030-01-01T00:00:10.000Z');
  const before = new Date(at.getTime() - 1);

  it('honours a roll’s stopsAt exactly as an expiry: works before the instant, refused from it on', () => {
    expect(keyWorksAt({ expiresAt: null, stopsAt: at }, before)).toBe(true);
    expect(keyWorksAt({ expiresAt: null, stopsAt: at }, at)).toBe(false);
    expect(keyWorksAt({ expiresAt: at, stopsAt: null }, before)).toBe(true);
    expect(keyWorksAt({ expiresAt: at, stopsAt: null }, at)).toBe(false);
  });

  it('stops at whichever comes first', () => {
    const later = new Date(at.getTime() + 60_000);
    expect(keyWorksAt({ expiresAt: later, stopsAt: at }, at)).toBe(false);
    expect(keyWorksAt({ expiresAt: at, stopsAt: later }, at)).toBe(false);
    expect(keyWorksAt({ expiresAt: null, stopsAt: null }, at)).toBe(true);
  });
});
