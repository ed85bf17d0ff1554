import { describe, expect, it } from 'vitest';
import { changesBetween } from './changes';

describe('changesBetween', () => {
  it('lists only differing fields, nested objects as dotted paths', () => {
    expect(
      changesBetween(
        { batchSize: 1, maxConcurrency: 5, target: { kind: 'https', url: 'https://a.test', timeoutSeconds: 5 } },
        { batchSize: 3, maxConcurrency: 5, target: { kind: 'https', url: 'https://b.test', timeoutSeconds: 5 } },
      ),
    ).toEqual([
      { field: 'batchSize', from: 1, to: 3 },
      { field: 'target.url', from: 'https://a.test', to: 'https://b.test' },
    ]);
  });

  it('compares arrays whole, ignoring key order inside their items', () => {
    const matchers = [{ label: 'env', op: '=', value: 'prod' }];
    expect(changesBetween({ matchers }, { matchers: [{ value: 'prod', op: '=', label: 'env' }] })).toEqual([]);
    expect(changesBetween({ matchers }, { matchers: [] })).toEqual([{ field: 'matchers', from: matchers, to: [] }]);
  });

  it('reads an absent field as null and is empty when nothing differs', () => {
    expect(changesBetween({ a: 1 }, { a: 1, b: 'x' })).toEqual([{ field: 'b', from: null, to: 'x' }]);
    expect(changesBetween({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });
});
