import { describe, expect, it, vi } from 'vitest';
import { deliveryBudget } from './budget';

describe('deliveryBudget', () => {
  it('never hands out more than its max over every loop, and wakes a loop that got less once room frees', () => {
    const budget = deliveryBudget(() => 6);
    const wakeA = vi.fn();
    const wakeB = vi.fn();
    expect(budget.reserve(5, wakeA)).toBe(5);
    expect(budget.awaited()).toBe(false);
    expect(budget.reserve(5, wakeB)).toBe(1);
    // A loop waits for room: the sends that end give theirs back rather than refill it.
    expect(budget.awaited()).toBe(true);
    expect(budget.reserve(3, wakeA)).toBe(0);
    expect(budget.open()).toBe(6);
    budget.free(2);
    expect(wakeA).toHaveBeenCalledTimes(1);
    expect(wakeB).toHaveBeenCalledTimes(1);
    expect(budget.awaited()).toBe(false);
    expect(budget.reserve(5, wakeB)).toBe(2);
    expect(budget.open()).toBe(6);
  });

  it('tells whether the one loop waiting for room is a given one', () => {
    const budget = deliveryBudget(() => 4);
    const [wakeA, wakeB] = [vi.fn(), vi.fn()];
    expect(budget.reserve(5, wakeA)).toBe(4);
    expect(budget.awaitedOnlyBy(wakeA)).toBe(true);
    expect(budget.awaitedOnlyBy(wakeB)).toBe(false);
    expect(budget.reserve(1, wakeB)).toBe(0);
    expect(budget.awaitedOnlyBy(wakeA)).toBe(false);
    budget.free(1);
    expect(budget.awaitedOnlyBy(wakeA)).toBe(false);
  });

  it('a loop that found less work than the room it got waits for nothing', () => {
    const budget = deliveryBudget(() => 6);
    const wake = vi.fn();
    expect(budget.reserve(4, vi.fn())).toBe(4);
    expect(budget.reserve(5, wake)).toBe(2);
    expect(budget.awaited()).toBe(true);
    // Its claim found one delivery for its two places.
    budget.satisfied(wake);
    budget.free(1);
    expect(budget.awaited()).toBe(false);
    expect(wake).not.toHaveBeenCalled();
  });

  it('does not wake a loop that got all it asked for', () => {
    const budget = deliveryBudget(() => 10);
    const wake = vi.fn();
    expect(budget.reserve(4, wake)).toBe(4);
    budget.free(4);
    expect(wake).not.toHaveBeenCalled();
    expect(budget.open()).toBe(0);
  });
});
