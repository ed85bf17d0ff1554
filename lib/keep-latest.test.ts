import { describe, expect, it } from 'vitest';
import { keepLatest } from './keep-latest';

describe('keepLatest', () => {
  it('keeps the latest `most` items, in order, dropping the oldest', () => {
    const list: number[] = [];
    for (let i = 1; i <= 7; i++) keepLatest(list, i, 3);
    expect(list).toEqual([5, 6, 7]);
  });

  it('keeps everything while there are fewer than `most`', () => {
    const list = [1];
    keepLatest(list, 2, 3);
    expect(list).toEqual([1, 2]);
  });
});
