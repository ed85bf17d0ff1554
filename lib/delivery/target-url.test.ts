import { describe, expect, it } from 'vitest';
import { updateSubscriptionBody } from '../subscriptions/schema';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4, httpsUrlProblem } from './target-url';

const accepted = [
  'https://hooks.example.com/orders',
  'https://hooks.example.com:8443/a/b?c=d#e',
  'https://8.8.8.8/ingest',
  'https://[2001:4860:4860::8888]/ingest',
  'HTTPS://Hooks.Example.com/Upper',
  'https://xn--bcher-kva.example/',
  `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`,
];

const refused: [url: string, why: string, message: string][] = [
  ['http://hooks.example.com/', 'plain http', 'start with https'],
  ['ftp://hooks.example.com/', 'another scheme', 'start with https'],
  ['hooks.example.com/orders', 'not absolute', 'start with https'],
  ['/relative/path', 'relative', 'start with https'],
  ['https:hooks.example.com', 'no //', 'start with https'],
  ['https://', 'no host', 'needs a host'],
  ['https:///path', 'empty host (WHATWG would read "path" as the host)', 'needs a host'],
  ['https://?q', 'empty host before a query', 'needs a host'],
  ['https://good.example\\@127.0.0.1/', 'a backslash before user-info: parsers disagree on the host', 'backslash'],
  ['https://hooks.example.com\\path', 'a backslash as a path separator', 'backslash'],
  ['https://ex%61mple.com/', 'a percent-escape in the host', 'as the URL parser reads it'],
  ['https://bücher.example/', 'a Unicode host name (send its xn-- form)', 'as the URL parser reads it'],
  ['https://\uff11\uff12\uff17.0.0.1/', 'full-width digits that become 127.0.0.1', 'internal address'],
  ['https://0x08.8.8.8/', 'a numeric shorthand of a public address', 'as the URL parser reads it'],
  ['https://[2001:4860:4860:0:0:0:0:8888]/', 'an IPv6 literal the parser shortens', 'as the URL parser reads it'],
  ['https://[::127.0.0.1]/', 'IPv4-compatible loopback', 'internal address'],
  ['https://[::10.1.2.3]/', 'IPv4-compatible private', 'internal address'],
  ['https://[::ffff:0:127.0.0.1]/', 'SIIT (RFC 6145) loopback', 'internal address'],
  ['https://[64:ff9b::127.0.0.1]/', 'NAT64 loopback', 'internal address'],
  ['https://[64:ff9b::192.168.0.1]/', 'NAT64 private', 'internal address'],
  ['https://[64:ff9b:1::a00:1]/', 'local-use NAT64 private', 'internal address'],
  ['https://[2002:7f00:1::]/', '6to4 of 127.0.0.1', 'internal address'],
  ['https://[2002:c0a8:101::1]/', '6to4 of 192.168.1.1', 'internal address'],
  ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'Teredo whose client is 127.0.0.1', 'internal address'],
  ['https://user:pass@hooks.example.com/', 'user-info', 'user name'],
  ['https://user@hooks.example.com/', 'user name only', 'user name'],
  ['https://@hooks.example.com/', 'empty user-info', 'user name'],
  ['https://127.0.0.1/', 'loopback', 'internal address'],
  ['https://127.255.0.9:8443/', 'loopback range', 'internal address'],
  ['https://10.0.0.1/', 'private 10/8', 'internal address'],
  ['https://172.16.5.4/', 'private 172.16/12', 'internal address'],
  ['https://192.168.1.1/', 'private 192.168/16', 'internal address'],
  ['https://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)', 'internal address'],
  ['https://0.0.0.0/', 'unspecified', 'internal address'],
  ['https://100.64.0.1/', 'carrier-grade NAT', 'internal address'],
  ['https://224.0.0.1/', 'multicast', 'internal address'],
  ['https://255.255.255.255/', 'broadcast', 'internal address'],
  ['https://2130706433/', 'decimal form of 127.0.0.1', 'internal address'],
  ['https://127.1/', 'short form of 127.0.0.1', 'internal address'],
  ['https://0x7f.0.0.1/', 'hex form of 127.0.0.1', 'internal address'],
  ['https://0177.0.0.1/', 'octal form of 127.0.0.1', 'internal address'],
  ['https://127.0.0.1./', 'trailing dot', 'internal address'],
  ['https://[::1]/', 'IPv6 loopback', 'internal address'],
  ['https://[::]/', 'IPv6 unspecified', 'internal address'],
  ['https://[fe80::1]/', 'IPv6 link-local', 'internal address'],
  ['https://[fd00::1]/', 'IPv6 unique local', 'internal address'],
  ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback', 'internal address'],
  ['https://[::ffff:7f00:1]/', 'IPv4-mapped loopback, hex form', 'internal address'],
  ['https://[::ffff:10.0.0.1]/', 'IPv4-mapped private', 'internal address'],
  ['https://localhost/', 'localhost', 'localhost'],
  ['https://api.localhost./', 'a localhost subdomain', 'localhost'],
  ['https://hooks.example.com/a b', 'a space', 'spaces'],
  [' https://hooks.example.com/', 'leading space', 'start with https'],
  [
    `https://hooks.example.com/${'a'.repeat(2049 - 'https://hooks.example.com/'.length)}`,
    'over 2048 characters',
    '2048',
  ],
];

describe('https target URL rules', () => {
  it.each(accepted)('accepts %s', (url) => {
    expect(httpsUrlProblem(url)).toBeNull();
  });

  it.each(refused)('refuses %s (%s)', (url, _why, message) => {
    expect(httpsUrlProblem(url)).toContain(message);
  });

  it('reports the problem at target.url through the PATCH schema, and the timeout bounds at target.timeoutSeconds', () => {
    const result = updateSubscriptionBody.safeParse({
      target: { kind: 'https', url: 'https://[::1]/', timeoutSeconds: 61 },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['target.timeoutSeconds', 'target.url']);
  });

  it.each([0, 61, 2.5, '3', null])('refuses timeoutSeconds %s', (timeoutSeconds) => {
    expect(updateSubscriptionBody.safeParse({ target: { kind: 'https', timeoutSeconds } }).success).toBe(false);
  });

  it.each([1, 60])('accepts timeoutSeconds %s', (timeoutSeconds) => {
    expect(updateSubscriptionBody.safeParse({ target: { kind: 'https', timeoutSeconds } }).success).toBe(true);
  });
});

describe('IPv6 forms that carry an IPv4 address', () => {
  it.each([
    ['::7f00:1', '127.0.0.1'],
    ['::ffff:a00:1', '10.0.0.1'],
    ['::ffff:0:c0a8:101', '192.168.1.1'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['2002:7f00:1::', '127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1'],
    ['2606:4700::1', null],
  ])('%s carries %s', (v6, v4) => {
    expect(embeddedIPv4(ipaddr.IPv6.parse(v6))?.toString() ?? null).toBe(v4);
  });
});
