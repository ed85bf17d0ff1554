import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressAllowed, targetUrlProblem } from './address';

const octet = fc.nat(255);
const loopbackV4 = fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`);
const privateV4 = fc.oneof(
  fc.tuple(octet, octet, octet).map(([a, b, c]) => `10.${a}.${b}.${c}`),
  fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([a, b, c]) => `172.${a}.${b}.${c}`),
  fc.tuple(octet, octet).map(([a, b]) => `192.168.${a}.${b}`),
  fc.tuple(octet, octet).map(([a, b]) => `169.254.${a}.${b}`),
  fc.tuple(fc.integer({ min: 64, max: 127 }), octet, octet).map(([a, b, c]) => `100.${a}.${b}.${c}`),
);

describe('webhook targets', () => {
  it('refuses loopback targets unless WEBHOOK_ALLOW_LOOPBACK admits them, over http or https', () => {
    fc.assert(
      fc.property(
        loopbackV4,
        fc.constantFrom('http', 'https'),
        fc.integer({ min: 1, max: 65535 }),
        (ip, scheme, port) => {
          const url = `${scheme}://${ip}:${port}/hook`;
          expect(targetUrlProblem(url, false)).not.toBeNull();
          expect(targetUrlProblem(url, true)).toBeNull();
        },
      ),
    );
    expect(targetUrlProblem('http://[::1]:8080/x', true)).toBeNull();
    expect(targetUrlProblem('http://[::1]:8080/x', false)).not.toBeNull();
  });

  it('refuses private, link-local and shared addresses even with the switch on; plain http elsewhere too', () => {
    fc.assert(
      fc.property(privateV4, fc.boolean(), (ip, allow) => {
        expect(targetUrlProblem(`https://${ip}/hook`, allow)).not.toBeNull();
        expect(targetUrlProblem(`http://${ip}/hook`, allow)).not.toBeNull();
      }),
    );
    for (const url of [
      'http://hooks.example.com/',
      'http://localhost:80/',
      'http://u@127.0.0.1/',
      'http://0x7f.0.0.1/',
    ])
      expect(targetUrlProblem(url, true)).not.toBeNull();
    expect(targetUrlProblem('https://hooks.example.com/x', false)).toBeNull();
  });

  it('checks resolved addresses at connection time the same way', () => {
    fc.assert(
      fc.property(privateV4, fc.boolean(), (ip, allow) => {
        expect(addressAllowed(ip, allow)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(loopbackV4, (ip) => {
        expect(addressAllowed(ip, false)).toBe(false);
        expect(addressAllowed(ip, true)).toBe(true);
      }),
    );
    expect(addressAllowed('::ffff:10.0.0.1', true)).toBe(false);
    expect(addressAllowed('::ffff:127.0.0.1', true)).toBe(true);
    expect(addressAllowed('93.184.215.14', false)).toBe(true);
    expect(addressAllowed('not an address', true)).toBe(false);
  });
});
