import { describe, expect, it } from 'vitest';
import { newTestProject, withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import { lastPostAt, POST_NOTE_MS, recordPost } from './posts-service';

withEmptyEmbeddedDatabase('alert-posts');

const NOW = new Date('2030-06-01T12:00:00.000Z');
const after = (ms: number) => new Date(NOW.getTime() + ms);

describe('the last alert post of a project', () => {
  it('is null until a post, then the latest one, written at most every POST_NOTE_MS', async () => {
    const { scope } = await newTestProject('Posts');
    const { scope: other } = await newTestProject('Other posts');
    expect(await lastPostAt(scope)).toBeNull();
    await recordPost(scope, NOW);
    expect(await lastPostAt(scope)).toBe(NOW.toISOString());
    // A resend soon after costs nothing and leaves the time as it was; the next one past the interval moves it.
    await recordPost(scope, after(POST_NOTE_MS - 1));
    expect(await lastPostAt(scope)).toBe(NOW.toISOString());
    await recordPost(scope, after(POST_NOTE_MS));
    expect(await lastPostAt(scope)).toBe(after(POST_NOTE_MS).toISOString());
    expect(await lastPostAt(other)).toBeNull();
  });
});
