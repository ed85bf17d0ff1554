import { describe, expect, it } from 'vitest';
import { pipelineHooks, registerPipelineHooks } from './hooks';

describe('pipeline hooks', () => {
  it('refuses to answer before the features registered theirs, so no check is skipped', () => {
    delete (globalThis as { __svcPipelineHooks?: unknown }).__svcPipelineHooks;
    expect(() => pipelineHooks()).toThrow(/not registered/);
  });

  it('answers with what was registered, in every copy of the module (globalThis)', async () => {
    registerPipelineHooks({ refusalInOrganization: async () => 'two_factor_required', outsideSudo: async () => true });
    const hooks = pipelineHooks();
    expect(await hooks.refusalInOrganization({ type: 'user', id: 'u', name: 'U', via: 'session' }, 'o')).toBe(
      'two_factor_required',
    );
    expect((globalThis as { __svcPipelineHooks?: unknown }).__svcPipelineHooks).toBe(hooks);
  });
});
