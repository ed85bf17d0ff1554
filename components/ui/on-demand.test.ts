import { describe, expect, it, vi } from 'vitest';
import { onDemand } from './on-demand';

describe('onDemand', () => {
  it('imports once however often it is asked, and remembers what it loaded', async () => {
    const importer = vi.fn(async () => 'module');
    const lazy = onDemand(importer);
    expect(lazy.current()).toBeNull();
    expect(importer).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([lazy.load(), lazy.load()]);
    expect([a, b, await lazy.load()]).toEqual(['module', 'module', 'module']);
    expect(lazy.current()).toBe('module');
    expect(importer).toHaveBeenCalledTimes(1);
  });
});
