import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFetch, ApiRequestError, registerAuthPrompts } from './api-client';

const refusal = (code: string) =>
  new Response(JSON.stringify({ error: { code, message: 'Confirm it is you: creating an API key.' } }), {
    status: 403,
    headers: { 'content-type': 'application/json' },
  });
const created = () => new Response(JSON.stringify({ ok: true }), { status: 201 });

describe('apiFetch and the console prompts', () => {
  let unregister: (() => void) | null = null;
  afterEach(() => {
    unregister?.();
    vi.unstubAllGlobals();
  });

  it('asks once after 403 reauthentication_required, then sends the same request again', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(refusal('reauthentication_required')).mockResolvedValueOnce(created());
    vi.stubGlobal('fetch', fetch);
    const reauthenticate = vi.fn().mockResolvedValue(true);
    unregister = registerAuthPrompts({ reauthenticate, twoFactorRequired: vi.fn() });
    const { data } = await apiFetch('/v1/x', { method: 'POST', body: { name: 'ci' } });
    expect(data).toEqual({ ok: true });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[1][1]).toMatchObject({ method: 'POST', body: JSON.stringify({ name: 'ci' }) });
  });

  it('lets the refusal through when the person cancels, without sending again', async () => {
    const fetch = vi.fn().mockResolvedValue(refusal('reauthentication_required'));
    vi.stubGlobal('fetch', fetch);
    unregister = registerAuthPrompts({ reauthenticate: async () => false, twoFactorRequired: vi.fn() });
    await expect(apiFetch('/v1/x', { method: 'POST' })).rejects.toMatchObject({ code: 'reauthentication_required' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('shares one dialog between requests refused together', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(refusal('reauthentication_required'))
      .mockResolvedValueOnce(refusal('reauthentication_required'))
      .mockImplementation(async () => created());
    vi.stubGlobal('fetch', fetch);
    let confirm: (ok: boolean) => void = () => {};
    const reauthenticate = vi.fn(() => new Promise<boolean>((resolve) => (confirm = resolve)));
    unregister = registerAuthPrompts({ reauthenticate, twoFactorRequired: vi.fn() });
    const both = Promise.all([apiFetch('/v1/a', { method: 'POST' }), apiFetch('/v1/b', { method: 'POST' })]);
    await vi.waitFor(() => expect(reauthenticate).toHaveBeenCalled());
    // Both refusals have been read (microtasks) and wait on the one dialog.
    await new Promise((resolve) => setTimeout(resolve, 50));
    confirm(true);
    await both;
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('hands 403 two_factor_required to the enrolment prompt and still fails the request', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(refusal('two_factor_required')));
    const twoFactorRequired = vi.fn();
    unregister = registerAuthPrompts({ reauthenticate: vi.fn(), twoFactorRequired });
    const error = await apiFetch('/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(twoFactorRequired).toHaveBeenCalledWith(error);
  });
});
