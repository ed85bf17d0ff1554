import { describe, expect, it } from 'vitest';
import { alertmanagerUrl, amtoolSnippet, prometheusSnippet } from './sender-snippets';

const target = { origin: 'https://console.example', orgId: 'o1', projectId: 'p1' };

describe("the snippets that connect a sender to a project's Alertmanager API", () => {
  it('give Prometheus the path prefix, the key as a bearer token and the host with its port', () => {
    expect(prometheusSnippet(target, 'svc_abc')).toBe(
      [
        'alerting:',
        '  alertmanagers:',
        '    - scheme: https',
        '      path_prefix: /alertmanager/o1/p1',
        '      authorization:',
        '        type: Bearer',
        '        credentials: svc_abc',
        '      static_configs:',
        "        - targets: ['console.example:443']",
      ].join('\n'),
    );
    const local = prometheusSnippet({ ...target, origin: 'http://127.0.0.1:3810' }, null);
    expect(local).toContain('scheme: http\n');
    expect(local).toContain('credentials: <the sender key>');
    expect(local).toContain("targets: ['127.0.0.1:3810']");
  });

  it("give amtool the project's URL with a key as Basic auth's password", () => {
    expect(alertmanagerUrl(target)).toBe('https://console.example/alertmanager/o1/p1');
    expect(amtoolSnippet(target, 'svc_abc')).toBe(
      'alertmanager.url: https://amtool:svc_abc@console.example/alertmanager/o1/p1',
    );
    expect(amtoolSnippet(target, null)).toContain('amtool:<your API key>@');
  });
});
