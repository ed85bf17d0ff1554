import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signedHeaders } from './signing';

const secret = fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => `whsec_${Buffer.from(b).toString('base64')}`);
/** Bodies are JSON (the reference's verify parses them), with any Unicode in their strings. */
const body = fc.oneof(
  fc.json(),
  fc.string({ unit: 'binary' }).map((text) => JSON.stringify({ text })),
);
const at = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});

describe('signedHeaders', () => {
  it('signs as the Standard Webhooks reference does, and its verify accepts every signature', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.array(secret, { minLength: 1, maxLength: 2 }), body, at, (id, secrets, text, when) => {
        const headers = signedHeaders(id, secrets, text, when, 'test');
        expect(headers['webhook-signature']).toBe(secrets.map((s) => new Webhook(s).sign(id, when, text)).join(' '));
        expect(headers['webhook-timestamp']).toBe(String(Math.floor(when.getTime() / 1000)));
        for (const s of secrets) {
          const one = new Webhook(s);
          // verify checks the timestamp against the clock: only the signature is under test here.
          (one as unknown as { verifyTimestamp: () => Date }).verifyTimestamp = () => when;
          expect(() => one.verify(text, headers)).not.toThrow();
        }
      }),
    );
  });

  it('fails verification with any other secret or body', () => {
    const headers = signedHeaders('msg_1', [newSigningSecret()], '{"a":1}', new Date(), 'test');
    expect(() => new Webhook(newSigningSecret()).verify('{"a":1}', headers)).toThrow();
  });
});
