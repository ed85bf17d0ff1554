import { describe, expect, it } from 'vitest';
import type { EffectivePermissions } from '@/lib/access/schema';
import { projectsThatUnlock, unavailableBecause } from './permission-reasons';

const prod = { id: '00000000-0000-4000-8000-000000000001', name: 'Production' };
const staging = { id: '00000000-0000-4000-8000-000000000002', name: 'Staging' };
const held: EffectivePermissions = {
  principal: { type: 'user', id: '00000000-0000-4000-8000-000000000009', name: 'Bob' },
  organization: ['obs.silences.list'],
  projects: [
    { projectId: prod.id, permissions: ['obs.silences.list', 'obs.silences.update'] },
    { projectId: staging.id, permissions: ['obs.silences.list'] },
  ],
};

describe('unavailableBecause', () => {
  it('says nothing of what is held in the whole organization', () => {
    expect(unavailableBecause('obs.silences.list', held, [], [prod, staging])).toBeNull();
  });

  it('names the project a permission needs until it is chosen', () => {
    expect(unavailableBecause('obs.silences.update', held, [], [prod, staging])).toBe(
      'yours only in Production: choose a project below',
    );
    expect(unavailableBecause('obs.silences.update', held, [prod.id], [prod, staging])).toBeNull();
    expect(unavailableBecause('obs.silences.update', held, [prod.id, staging.id], [prod, staging])).toBe(
      'not yours in Staging',
    );
  });

  it('says when it is not held at all, or not known yet', () => {
    expect(unavailableBecause('members.list', held, [], [prod, staging])).toBe('you do not hold it');
    expect(unavailableBecause('members.list', undefined, [], [prod])).toBe('loading what you hold');
  });
});

describe('projectsThatUnlock', () => {
  it('offers each project with what it would let the key have', () => {
    const all = ['obs.silences.list', 'obs.silences.update', 'members.list'];
    expect(projectsThatUnlock(all, held, [prod, staging])).toEqual([
      { project: prod, permissions: ['obs.silences.update'] },
    ]);
    expect(projectsThatUnlock(all, undefined, [prod])).toEqual([]);
  });
});
