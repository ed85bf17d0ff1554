import { describe, expect, it } from 'vitest';
import { figuresByQueue } from './queue-figures';

describe("the queue list's figures", () => {
  const subs = [
    { id: 's1', queueId: 'q1' },
    { id: 's2', queueId: 'q1' },
    { id: 's3', queueId: 'q2' },
  ];

  it("adds up the subscriptions' ready messages and keeps the oldest", () => {
    const backlogs: Record<string, { ready: number; oldestReadyAt: string | null }> = {
      s1: { ready: 3, oldestReadyAt: '2026-11-28T10:05:00.000Z' },
      s2: { ready: 2, oldestReadyAt: '2026-11-28T10:01:00.000Z' },
      s3: { ready: 0, oldestReadyAt: null },
    };
    const figures = figuresByQueue(subs, (id) => backlogs[id]);
    expect(figures.get('q1')).toEqual({ subscriptions: 2, ready: 5, oldestReadyAt: '2026-11-28T10:01:00.000Z' });
    expect(figures.get('q2')).toEqual({ subscriptions: 1, ready: 0, oldestReadyAt: null });
    expect(figures.get('q3')).toBeUndefined();
  });

  it('gives only the count while any backlog of the queue is still unknown', () => {
    const figures = figuresByQueue(subs, (id) => (id === 's2' ? undefined : { ready: 1, oldestReadyAt: null }));
    expect(figures.get('q1')).toEqual({ subscriptions: 2 });
    expect(figures.get('q2')).toEqual({ subscriptions: 1, ready: 1, oldestReadyAt: null });
  });
});
