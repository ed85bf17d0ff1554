import { z } from 'zod';
import type { Issue } from '../errors';
import { decodeUtf8 } from '../http/body';
import { zodIssues } from '../http/issues';
import { parseJson } from '../http/json-body';
import type { BodyFormat, FormatRead } from '../pipeline/body-format';
import { MAX_MESSAGES_PER_PUBLISH } from './schema';

// CloudEvents 1.0 over HTTP (the HTTP protocol binding and the JSON event format): each event is one message whose
// body is the event in its structured JSON form.
const STRUCTURED = 'application/cloudevents+json';
const BATCH = 'application/cloudevents-batch+json';

const required = (name: string) => {
  const error = `A CloudEvent needs \`${name}\`: a non-empty string.`;
  return z.string({ error }).min(1, { error });
};

/** An event in structured JSON form: the four required attributes, the optional ones, extensions and its data. */
export const cloudEvent = z
  .looseObject({
    specversion: z.literal('1.0', { error: 'Only CloudEvents 1.0 is accepted: `specversion` must be "1.0".' }),
    id: required('id'),
    source: required('source'),
    type: required('type'),
    datacontenttype: z.string().optional(),
    dataschema: z.string().optional(),
    subject: z.string().optional(),
    time: z.string().optional(),
    data: z.unknown().optional(),
    data_base64: z.string({ error: '`data_base64` must be a string of base64.' }).optional(),
  })
  .superRefine((event, ctx) => {
    if (event.data !== undefined && event.data_base64 !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['data_base64'],
        message: 'An event has `data` or `data_base64`, not both.',
      });
  })
  .meta({ id: 'CloudEvent', description: 'A CloudEvents 1.0 event in structured JSON form; it becomes one message.' });

const batch = z
  .array(cloudEvent, { error: 'A batch is a JSON array of CloudEvents.' })
  .min(1, `Send 1 to ${MAX_MESSAGES_PER_PUBLISH} events.`)
  .max(MAX_MESSAGES_PER_PUBLISH, `Send 1 to ${MAX_MESSAGES_PER_PUBLISH} events.`)
  .meta({ id: 'CloudEventBatch' });

/** The media type of a Content-Type header, lowercase, without its parameters. */
const mediaType = (headers: Headers) => (headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();

/** Events as the publish body; `schema` has already said what is wrong with them, if anything. */
function asMessages(schema: z.ZodType, value: unknown, events: (value: unknown) => unknown[]): FormatRead {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { issues: zodIssues(parsed.error) };
  return { value: { messages: events(value).map((body) => ({ body })) } };
}

/** `messages.2.body.data.x` of the publish body as the path in the events sent: `2.data.x` in a batch. */
function eventPath(path: string, batched: boolean): string {
  const [, index, rest] = /^messages(?:\.(\d+)(?:\.body(?:\.(.*))?)?)?$/.exec(path) ?? [];
  return [batched ? index : undefined, rest].filter((part) => part !== undefined).join('.');
}

/** Content-Type, every `ce-*` header and the body: what one request in a CloudEvents mode says. */
function requestText(bytes: Buffer | null, headers: Headers): string {
  const attributes = [...headers].filter(([name]) => name === 'content-type' || name.startsWith('ce-')).sort();
  return JSON.stringify([attributes, bytes?.toString('base64') ?? '']);
}

const jsonText = (bytes: Buffer | null) => parseJson(bytes ? decodeUtf8(bytes) : '');

const structured: BodyFormat = {
  matches: (headers) => mediaType(headers) === STRUCTURED,
  documented: { mediaType: STRUCTURED, schema: cloudEvent },
  read: (bytes) => asMessages(cloudEvent, jsonText(bytes), (event) => [event]),
  issuePath: (path) => eventPath(path, false),
  requestText,
};

const batched: BodyFormat = {
  matches: (headers) => mediaType(headers) === BATCH,
  documented: { mediaType: BATCH, schema: batch },
  read: (bytes) => asMessages(batch, jsonText(bytes), (events) => events as unknown[]),
  issuePath: (path) => eventPath(path, true),
  requestText,
};

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** A binary-mode event's data: JSON as its value, text as a string, anything else as base64. */
function binaryData(bytes: Buffer | null, type: string): { data?: unknown; data_base64?: string } {
  if (!bytes) return {};
  if (isJson(type)) return { data: jsonText(bytes) };
  if (type.startsWith('text/')) return { data: decodeUtf8(bytes) };
  return { data_base64: bytes.toString('base64') };
}

/** A `ce-*` header's value: percent-encoded UTF-8, as the HTTP binding writes what a header cannot carry. */
function headerValue(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** Binary mode: the attributes in `ce-*` headers, the body the data, its Content-Type the `datacontenttype`. */
const binary: BodyFormat = {
  matches: (headers) => headers.has('ce-specversion'),
  read: (bytes, headers) => {
    const attributes: Record<string, string> = {};
    const issues: Issue[] = [];
    for (const [name, value] of headers) {
      if (!name.startsWith('ce-')) continue;
      const decoded = headerValue(value);
      if (decoded === null) issues.push({ path: name, message: 'The value is not valid percent-encoded UTF-8.' });
      else attributes[name.slice(3)] = decoded;
    }
    if (issues.length > 0) return { issues };
    const type = mediaType(headers);
    const event = { ...attributes, ...(type ? { datacontenttype: headers.get('content-type') } : {}) };
    const parsed = cloudEvent.safeParse(event);
    if (!parsed.success) return { issues: zodIssues(parsed.error).map((i) => ({ ...i, path: `ce-${i.path}` })) };
    return { value: { messages: [{ body: { ...event, ...binaryData(bytes, type) } }] } };
  },
  issuePath: (path) => {
    const attribute = eventPath(path, false).split('.')[0];
    return attribute === '' || attribute.startsWith('data') ? '' : `ce-${attribute}`;
  },
  requestText,
};

const headerText = z
  .string()
  .regex(/^[!#-~]+$/, 'Printable ASCII without spaces or double quotes: percent-encode the rest, as the binding says.');

/** The binary mode's required headers, for the document; any other `ce-*` header is an attribute too. */
export const binaryModeHeaders = {
  'ce-specversion': headerText.optional().meta({ description: 'Binary mode: `1.0`. Its presence selects the mode.' }),
  'ce-id': headerText.optional().meta({ description: 'Binary mode: the event’s `id`.' }),
  'ce-source': headerText.optional().meta({ description: 'Binary mode: the event’s `source`.' }),
  'ce-type': headerText.optional().meta({ description: 'Binary mode: the event’s `type`.' }),
};

/** The publish operation's CloudEvents formats, in the order a request is matched against them. */
export const cloudEventFormats: readonly BodyFormat[] = [structured, batched, binary];
