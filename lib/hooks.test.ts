import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hook } from './hooks';

describe('hooks', () => {
  it('refuse to answer before one is registered, so no check is skipped', () => {
    const answer = hook<() => string>(`test-${randomUUID()}`);
    expect(() => answer.get()).toThrow(/hook is not registered/);
    expect(answer.find()).toBeUndefined();
  });

  it('answer with what was registered, in every copy of the module that declares them', () => {
    const name = `test-${randomUUID()}`;
    const declared = hook<() => string>(name);
    declared.register(() => 'registered');
    // Another copy of the declaring module (another route's bundle) declares the same hook by its name.
    const elsewhere = hook<() => string>(name);
    expect(elsewhere.get()()).toBe('registered');
    expect(elsewhere.find()).toBe(declared.get());
  });
});
