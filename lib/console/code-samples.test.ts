import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { amtoolUrlOption, curlLine, fillPath, shellWord } from './code-samples';

/** What bash makes of a line: each word it would pass, one a line, with $SVC_API_KEY set. */
const words = (line: string) =>
  execFileSync('bash', ['-c', `printf '%s\\n' ${line.replace(/^curl /, '')}`], {
    env: { ...process.env, SVC_API_KEY: 'svc_key' },
  })
    .toString()
    .trimEnd()
    .split('\n');

describe('requests copied from the console', () => {
  it('fills the path template and leaves an unknown parameter to be seen', () => {
    expect(fillPath('/v1/organizations/{orgId}/queues/{queueId}/messages', { orgId: 'o1', queueId: 'que_a' })).toBe(
      '/v1/organizations/o1/queues/que_a/messages',
    );
    expect(fillPath('/v1/x/{missing}', {})).toBe('/v1/x/{missing}');
  });

  it('quotes what the shell would split or expand, and a quote inside', () => {
    expect(shellWord('https://h:1/v1/x')).toBe('https://h:1/v1/x');
    expect(shellWord('{"a":"it\'s $HOME"}')).toBe(`'{"a":"it'\\''s $HOME"}'`);
    expect(words(shellWord('{"a":"it\'s $HOME"}'))).toEqual(['{"a":"it\'s $HOME"}']);
  });

  it('a curl line reaches the shell as the request: the key from $SVC_API_KEY, the body as one word', () => {
    const line = curlLine({
      method: 'PATCH',
      url: 'http://127.0.0.1:3000/v1/s/sil_1',
      headers: ['If-Match: "3"'],
      body: '{"comment":"x y"}',
    });
    expect(line.split('\n')).toHaveLength(4);
    expect(words(line)).toEqual([
      '-X',
      'PATCH',
      'http://127.0.0.1:3000/v1/s/sil_1',
      '-H',
      'Authorization: Bearer svc_key',
      '-H',
      'If-Match: "3"',
      '-d',
      '{"comment":"x y"}',
    ]);
  });

  it('a new key is written into its own first call; GET needs no -X', () => {
    expect(curlLine({ method: 'GET', url: 'https://c.example/v1/api-key', key: 'svc_new' })).toBe(
      "curl https://c.example/v1/api-key \\\n  -H 'Authorization: Bearer svc_new'",
    );
  });

  it("amtool's URL carries the key from the environment as Basic auth's password", () => {
    const option = amtoolUrlOption({ origin: 'https://c.example', orgId: 'o1', projectId: 'p1' });
    expect(words(option)).toEqual(['--alertmanager.url=https://amtool:svc_key@c.example/alertmanager/o1/p1']);
  });
});
