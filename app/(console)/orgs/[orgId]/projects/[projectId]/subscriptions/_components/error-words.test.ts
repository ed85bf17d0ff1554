import { describe, expect, it } from 'vitest';
import { errorInWords, statusText } from './error-words';

describe('a delivery error in words', () => {
  it('says what an HTTP answer means, with its status and reason', () => {
    expect(errorInWords({ class: 'http', status: 503, message: 'The target answered 503 Service Unavailable.' })).toBe(
      'The target answered 503 Service Unavailable: it failed on its side, or is down or overloaded.',
    );
    expect(errorInWords({ class: 'http', status: 404, message: '' })).toBe(
      'The target answered 404 Not Found: nothing is at that address (check the URL).',
    );
    expect(errorInWords({ class: 'http', status: 410, message: '' })).toMatch(
      /410 Gone, so the subscription was paused/,
    );
    expect(statusText(599)).toBe('599');
  });

  it('says what a failure without an answer means, by its class', () => {
    expect(errorInWords({ class: 'connection', status: 0, message: 'ECONNREFUSED: connect ECONNREFUSED' })).toMatch(
      /^Could not connect to the target/,
    );
    expect(errorInWords({ class: 'timeout', status: 0, message: 'No answer within 5 s.' })).toMatch(/did not answer/);
    expect(errorInWords({ class: 'tls', status: 0, message: '' })).toMatch(/secure connection/);
    expect(errorInWords({ class: 'blocked_address', status: 0, message: '' })).toMatch(/private, loopback/);
  });

  it('gives the server’s message for a class this version does not know, or a partial 2xx', () => {
    expect(errorInWords({ class: 'http_status', status: 503, message: 'Target answered 503' })).toBe(
      'Target answered 503',
    );
    expect(
      errorInWords({ class: 'http', status: 200, message: 'The target reported 1 of 3 messages as failed.' }),
    ).toBe('The target reported 1 of 3 messages as failed.');
  });
});
