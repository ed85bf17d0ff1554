import { CloudEvent, CONSTANTS, HTTP, type Message } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { ApiError, type Issue } from '../errors';
import { formatOf, validateFormatBody } from '../pipeline/body-format';
import { cloudEventFormats } from './cloudevents';
import { MAX_MESSAGE_BODY_BYTES, publishBody } from './schema';

type Published = { messages: { body: Record<string, unknown> }[] };

/** What the route makes of a request: the publish body, or the issues at the request's own paths. */
function publish(headers: Record<string, string>, body: string | Buffer | null): Published | Issue[] {
  const h = new Headers(headers);
  const format = formatOf(cloudEventFormats, h);
  if (!format) throw new Error('not a CloudEvents request');
  const bytes = body === null ? null : Buffer.from(body);
  const parsed = validateFormatBody(format, publishBody, bytes, h);
  return parsed.success ? (parsed.data as Published) : parsed.issues;
}

const fromMessage = (m: Message) => publish(m.headers as Record<string, string>, m.body as string | Buffer);
const paths = (result: Published | Issue[]) => (Array.isArray(result) ? result.map((i) => i.path).sort() : []);
const event = (fields: Record<string, unknown> = {}) =>
  new CloudEvent({ id: 'e-1', source: '/orders', type: 'order.created', data: { order: 7 }, ...fields });
const structured = (value: unknown) =>
  publish({ 'content-type': CONSTANTS.DEFAULT_CE_CONTENT_TYPE }, JSON.stringify(value));
const batched = (value: unknown) => publish({ 'content-type': CONSTANTS.MIME_CE_BATCH }, JSON.stringify(value));

describe('CloudEvents over HTTP, as the SDK sends them', () => {
  it('structured mode: the event is the message body, as sent', () => {
    const e = event({ subject: 'o-7', traceparent: '00-abc-def-01' });
    const { messages } = fromMessage(HTTP.structured(e)) as Published;
    expect(messages).toEqual([{ body: JSON.parse(HTTP.structured(e).body as string) }]);
    expect(messages[0].body).toMatchObject({
      specversion: '1.0',
      id: 'e-1',
      data: { order: 7 },
      traceparent: '00-abc-def-01',
    });
  });

  it('binary mode: the ce-* headers are the attributes, a JSON body the data, the Content-Type its datacontenttype', () => {
    const { messages } = fromMessage(HTTP.binary(event({ subject: 'o-7', partitionkey: 'p1' }))) as Published;
    expect(messages[0].body).toMatchObject({
      specversion: '1.0',
      id: 'e-1',
      source: '/orders',
      type: 'order.created',
      subject: 'o-7',
      partitionkey: 'p1',
      datacontenttype: 'application/json; charset=utf-8',
      data: { order: 7 },
    });
  });

  it('binary mode: text data stays a string, other data goes as data_base64, no body as no data', () => {
    const headers = { 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': '/s', 'ce-type': 't' };
    const text = publish({ ...headers, 'content-type': 'text/plain; charset=utf-8' }, 'héllo') as Published;
    expect(text.messages[0].body).toMatchObject({ data: 'héllo', datacontenttype: 'text/plain; charset=utf-8' });
    const bytes = Buffer.from([0xff, 0x00, 0x80]);
    const binary = publish({ ...headers, 'content-type': 'application/octet-stream' }, bytes) as Published;
    expect(binary.messages[0].body.data_base64).toBe(bytes.toString('base64'));
    expect(binary.messages[0].body).not.toHaveProperty('data');
    expect((publish(headers, null) as Published).messages[0].body).toEqual({
      specversion: '1.0',
      id: '1',
      source: '/s',
      type: 't',
    });
    const encoded = publish({ ...headers, 'ce-subject': 'caf%C3%A9%20au%20lait' }, null) as Published;
    expect(encoded.messages[0].body.subject).toBe('café au lait');
  });

  it('a batch: one message per event, in order', () => {
    const events = [event({ id: 'a' }), event({ id: 'b', data: 'two' }), event({ id: 'c', data: undefined })];
    const { messages } = batched(events) as Published;
    expect(messages.map((m) => m.body.id)).toEqual(['a', 'b', 'c']);
    expect(messages[1].body.data).toBe('two');
  });
});

describe('what a CloudEvents request may not be', () => {
  const valid = { specversion: '1.0', id: 'x', source: '/s', type: 't' };

  it('an event without id, source, specversion 1.0 or type: 400 at that attribute', () => {
    for (const name of ['id', 'source', 'specversion', 'type']) {
      const { [name as keyof typeof valid]: _left, ...rest } = valid;
      void _left;
      expect(paths(structured(rest)), name).toEqual([name]);
      expect(paths(structured({ ...valid, [name]: '' })), name).toEqual([name]);
      expect(paths(structured({ ...valid, [name]: 7 })), name).toEqual([name]);
    }
    expect(paths(structured({ ...valid, specversion: '0.3' }))).toEqual(['specversion']);
    expect(paths(structured({ ...valid, data: 1, data_base64: 'AA==' }))).toEqual(['data_base64']);
    expect(paths(structured([valid]))).toEqual(['']);
  });

  it('in a batch, each issue at the event’s index; the batch itself at ""', () => {
    const { source: _source, ...noSource } = valid;
    void _source;
    expect(paths(batched([valid, valid, noSource, { ...valid, type: '' }]))).toEqual(['2.source', '3.type']);
    expect(paths(batched(valid))).toEqual(['']);
    expect(paths(batched([]))).toEqual(['']);
    expect(paths(batched(Array.from({ length: 101 }, () => valid)))).toEqual(['']);
  });

  it('binary mode: a missing or empty attribute, or one not percent-encoded right, at its header', () => {
    const headers = { 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': '/s', 'ce-type': 't' };
    const { 'ce-source': _source, ...noSource } = headers;
    void _source;
    expect(paths(publish(noSource, null))).toEqual(['ce-source']);
    expect(paths(publish({ ...headers, 'ce-specversion': '0.3', 'ce-type': '' }, null))).toEqual([
      'ce-specversion',
      'ce-type',
    ]);
    expect(paths(publish({ ...headers, 'ce-subject': '%E0%A4%A' }, null))).toEqual(['ce-subject']);
  });

  it('the publish body’s rules land at the request’s own paths', () => {
    const big = 'x'.repeat(MAX_MESSAGE_BODY_BYTES);
    expect(paths(structured({ ...valid, data: big }))).toEqual(['']);
    expect(paths(batched([valid, { ...valid, data: big }]))).toEqual(['1']);
    expect(paths(batched([{ ...valid, data: { deep: ['a\u0000'] } }]))).toEqual(['0.data.deep.0']);
    expect(paths(structured({ ...valid, subject: '\ud800' }))).toEqual(['subject']);
    const headers = { 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': '/s', 'ce-type': 't' };
    expect(paths(publish({ ...headers, 'content-type': 'application/json' }, JSON.stringify(big)))).toEqual(['']);
    expect(paths(publish({ ...headers, 'ce-subject': '%00' }, null))).toEqual(['ce-subject']);
  });

  it('a body that is not JSON, or not UTF-8, where JSON is due: 400 at ""', () => {
    for (const [type, body] of [
      [CONSTANTS.DEFAULT_CE_CONTENT_TYPE, '{"id":'],
      [CONSTANTS.MIME_CE_BATCH, Buffer.from([0x5b, 0xff, 0x5d])],
    ] as const) {
      const err = (() => {
        try {
          publish({ 'content-type': type }, body);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).issues?.map((i) => i.path)).toEqual(['']);
    }
  });
});

describe('which requests are CloudEvents', () => {
  it('by Content-Type, in any case and with parameters, else by a ce-specversion header; plain JSON is none', () => {
    const mode = (headers: Record<string, string>) =>
      cloudEventFormats.indexOf(formatOf(cloudEventFormats, new Headers(headers))!);
    expect(mode({ 'content-type': 'Application/CloudEvents+JSON; charset=utf-8' })).toBe(0);
    expect(mode({ 'content-type': 'application/cloudevents-batch+json', 'ce-specversion': '1.0' })).toBe(1);
    expect(mode({ 'content-type': 'application/json', 'ce-specversion': '1.0' })).toBe(2);
    expect(formatOf(cloudEventFormats, new Headers({ 'content-type': 'application/json' }))).toBeUndefined();
  });

  it('two binary-mode requests differing only in a ce-* header are different requests for Idempotency-Key', () => {
    const binary = cloudEventFormats[2];
    const text = (id: string) =>
      binary.requestText(Buffer.from('{}'), new Headers({ 'ce-specversion': '1.0', 'ce-id': id }));
    expect(text('a')).not.toBe(text('b'));
    expect(text('a')).toBe(text('a'));
  });
});
