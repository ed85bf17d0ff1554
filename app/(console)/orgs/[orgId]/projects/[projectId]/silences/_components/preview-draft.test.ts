import { describe, expect, it } from 'vitest';
import { previewDraft } from './preview-draft';

const run = { label: 'run', op: '=' as const, value: 'r1' };

describe('the draft the editor previews', () => {
  it('asks nothing until one matcher is valid, and leaves a half-typed row out', () => {
    expect(previewDraft({ matchers: [{ label: '', op: '=', value: '' }] })).toBeNull();
    expect(previewDraft({ matchers: [run, { label: 'job', op: '=~', value: 'api(' }] })).toEqual({ matchers: [run] });
  });

  it('asks nothing for a set that matches every alert (the empty-string rule)', () => {
    expect(previewDraft({ matchers: [{ label: 'job', op: '=~', value: '.*' }] })).toBeNull();
  });

  it('sends the times when they pass the create rules, else the matchers alone', () => {
    const times = { startsAt: '2026-11-27T17:00:00.000Z', endsAt: '2026-11-27T18:00:00.000Z' };
    expect(previewDraft({ matchers: [run], ...times })).toEqual({ matchers: [run], ...times });
    expect(previewDraft({ matchers: [run], startsAt: times.endsAt, endsAt: times.startsAt })).toEqual({
      matchers: [run],
    });
  });
});
