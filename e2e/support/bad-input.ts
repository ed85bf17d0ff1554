import fc from 'fast-check';
import {
  isObject,
  pathsOf,
  type JsonSchema,
  type OpenApiParameter,
  type Path,
  type SchemaReader,
} from './openapi-schema';

/** A request that would succeed; every generated case differs from it in exactly one place. */
export type ValidRequest = { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> };

/** One bad input: where it goes, what class of problem it is, and the issue path the answer must name. */
export type Mutation = {
  where: 'body' | 'query' | 'header';
  path: Path;
  kind: string;
  /** body: the JSON value put at `path`; query/header: the raw (percent-encoded) value. */
  value?: unknown;
  /** body: bytes that replace the string at `path` (invalid UTF-8); the whole body when `path` is []. */
  bytes?: number[];
  /** body: a key added to the object at `path`. */
  key?: string;
  /** body: the whole body, as text. */
  raw?: string;
};

export const dotted = (path: Path) => path.map(String).join('.');

/** The issue path a refusal of this mutation must report. */
export function expectedIssuePath(m: Mutation): string {
  if (m.where !== 'body') return dotted(m.path);
  if (m.raw !== undefined || m.bytes) return '';
  return dotted(m.key === undefined ? m.path : [...m.path, m.key]);
}

// Invalid UTF-8: a byte that never occurs, an overlong '/', an encoded surrogate, a truncated sequence.
const BAD_BYTES = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]];
const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'];
const ascii = fc.string({ unit: 'grapheme-ascii', maxLength: 12 });
const around = (bad: fc.Arbitrary<string>) => fc.tuple(ascii, bad, ascii).map(([a, b, c]) => a + b + c);
const percent = (bytes: number[]) => bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

type Slot = { kind: string; arb: fc.Arbitrary<Mutation>; example: Mutation };
const slot = (kind: string, arb: fc.Arbitrary<Mutation>, example: Mutation): Slot => ({ kind, arb, example });

/** Adds one class of bad values: the random ones and its fixed example, each made into a mutation. */
const adder =
  (out: Slot[], make: (kind: string, value: unknown) => Mutation) =>
  <T>(kind: string, arb: fc.Arbitrary<T>, example: T) =>
    out.push(
      slot(
        kind,
        arb.map((v) => make(kind, v)),
        make(kind, example),
      ),
    );

/** Bad values of one field: random members of each class, and one fixed example per class. */
function valueSlots(
  schema: JsonSchema,
  value: unknown,
  nullable: boolean,
  make: (kind: string, value: unknown) => Mutation,
  root: boolean,
  anything = false,
): Slot[] {
  const out: Slot[] = [];
  const add = adder(out, make);
  if (typeof value === 'string') {
    add('NUL', around(fc.constant('\u0000')), 'a\u0000b');
    add('lone surrogate', around(fc.constantFrom(...LONE_SURROGATES)), '\ud800');
  }
  // Inside a field that takes any JSON value, only text that cannot be stored is wrong.
  if (anything) return out;
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined)
      add(
        'over-long',
        fc.integer({ min: schema.maxLength + 1, max: schema.maxLength + 300 }).map((n) => 'x'.repeat(n)),
        'x'.repeat(schema.maxLength + 1),
      );
    if ((schema.minLength ?? 0) >= 1 || schema.enum || schema.const !== undefined || schema.format || schema.pattern)
      add('empty', fc.constant(''), '');
    if (schema.enum || schema.const !== undefined) {
      const allowed = schema.enum ?? [schema.const];
      add(
        'not one of the values',
        ascii.filter((s) => !allowed.includes(s)),
        'nope',
      );
    }
    add('wrong type', fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({})), 42);
  } else if (typeof value === 'number') {
    const integer = schema.type === 'integer';
    if (integer)
      add(
        'float',
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
        2.5,
      );
    add('huge', fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, 1e21), 1e308);
    if ((schema.minimum ?? schema.exclusiveMinimum ?? -1) >= 0) add('negative', fc.integer({ min: -1e9, max: -1 }), -1);
    add('string', fc.integer({ min: 1, max: 9 }).map(String), '3');
    add('wrong type', fc.oneof(fc.boolean(), fc.constant({}), fc.constant([])), true);
  } else if (Array.isArray(value)) {
    add('wrong type', fc.oneof(fc.constant({}), ascii, fc.integer()), {});
  } else if (isObject(value)) {
    add('wrong type', fc.oneof(fc.constant([]), ascii, fc.integer(), fc.boolean()), root ? [] : 'x');
  }
  if (!nullable) add('null', fc.constant(null), null);
  return out;
}

/** Every class of bad body the issue lists, derived from the valid body and its schema. */
export function bodySlots(reader: SchemaReader, schema: JsonSchema, valid: unknown, required: boolean): Slot[] {
  const out: Slot[] = [];
  for (const path of pathsOf(valid)) {
    const value = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], valid);
    const at = reader.at(schema, valid, path);
    const variant = reader.variantOf(at, value);
    const anything = reader.takesAnything(schema, valid, path);
    const make = (kind: string, v: unknown): Mutation => ({ where: 'body', path, kind, value: v });
    const nullable = path.length > 0 && reader.allowsNull(at);
    out.push(...valueSlots(variant, value, nullable, make, path.length === 0, anything));
    if (typeof value === 'string') {
      const bytes = (b: number[]): Mutation => ({ where: 'body', path, kind: 'invalid UTF-8', bytes: b });
      out.push(slot('invalid UTF-8', fc.constantFrom(...BAD_BYTES).map(bytes), bytes(BAD_BYTES[0])));
    }
    if (isObject(value)) {
      const known = new Set(Object.keys(variant.properties ?? {}));
      const field = (key: string, v: unknown): Mutation => ({
        where: 'body',
        path,
        kind: 'unknown field',
        key,
        value: v,
      });
      const name = ascii.filter((k) => k !== '' && !known.has(k) && k !== '__proto__');
      // A map (attributes) and a field that takes anything have no unknown keys; `__proto__` stays refused in both.
      const map = typeof variant.additionalProperties === 'object';
      if (!anything && !map)
        out.push(
          slot(
            'unknown field',
            fc.tuple(name, fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => field(k, v)),
            field('extra', true),
          ),
        );
      out.push(
        slot(
          '__proto__ field',
          fc.jsonValue({ maxDepth: 1 }).map((v) => field('__proto__', v)),
          field('__proto__', {}),
        ),
      );
    }
  }
  const raw = (text: string): Mutation => ({ where: 'body', path: [], kind: 'not JSON', raw: text });
  const texts = ['{', 'not json', '{"a":', "{'a':1}", '[1,]', ...(required ? [''] : [])];
  out.push(slot('not JSON', fc.constantFrom(...texts).map(raw), raw('not json')));
  const wholeBytes = (b: number[]): Mutation => ({ where: 'body', path: [], kind: 'invalid UTF-8', bytes: b });
  out.push(slot('invalid UTF-8', fc.constantFrom(...BAD_BYTES).map(wholeBytes), wholeBytes([0xff])));
  return out;
}

/** Bad values of a query parameter or header, sent as raw (percent-encoded for queries) text. */
export function parameterSlots(param: OpenApiParameter, reader: SchemaReader): Slot[] {
  const where = param.in === 'query' ? 'query' : 'header';
  const schema = reader.variants(param.schema).find((v) => v.type !== 'null') ?? {};
  const make = (kind: string, value: unknown): Mutation => ({ where, path: [param.name], kind, value });
  const out: Slot[] = [];
  const add = adder(out, make);
  const enc = (s: string) => (where === 'query' ? encodeURIComponent(s) : s);
  if (where === 'query') {
    add('NUL', around(fc.constant('\u0000')).map(enc), '%00');
    add(
      'invalid UTF-8',
      fc.tuple(ascii, fc.constantFrom(...BAD_BYTES)).map(([a, b]) => enc(a) + percent(b)),
      '%FF',
    );
  } else {
    add('not ASCII', around(fc.constantFrom('\u00ff', '\u00e9', '\u0080')), '\u00ff');
  }
  // A length bound may be written as maxLength or as a pattern's last `{m,n}`.
  const maxLength = schema.maxLength ?? Number(/\{\d+,(\d+)\}\$$/.exec(schema.pattern ?? '')?.[1] ?? NaN);
  if (!Number.isNaN(maxLength))
    add(
      'over-long',
      fc.integer({ min: maxLength + 1, max: maxLength + 300 }).map((n) => 'x'.repeat(n)),
      'x'.repeat(maxLength + 1),
    );
  if ((schema.minLength ?? 0) >= 1 || schema.enum || schema.pattern || schema.type === 'integer')
    add('empty', fc.constant(''), '');
  if (schema.enum) add('not one of the values', ascii.filter((s) => !schema.enum!.includes(s)).map(enc), 'nope');
  if (schema.type === 'integer' || schema.type === 'number') {
    add(
      'float',
      fc
        .double({ min: 1.01, max: 99.99, noNaN: true })
        .filter((n) => !Number.isInteger(n))
        .map(String),
      '2.5',
    );
    add('huge', fc.constantFrom('1e308', '9007199254740993', String(1e21)), '1e308');
    add('negative', fc.integer({ min: -1e9, max: -1 }).map(String), '-1');
    add('not a number', ascii.filter((s) => s.trim() !== '' && Number.isNaN(Number(s))).map(enc), 'abc');
  }
  if (where === 'header' && schema.pattern === undefined)
    add(
      'malformed',
      ascii.filter((s) => /^[\x21-\x7e]+$/.test(s) && !s.includes('"') && s !== '*'),
      'no-quotes',
    );
  // Inside the value: HTTP strips spaces at either end of a header (RFC 9110 §5.5), so those never arrive.
  const inside = fc.tuple(ascii, ascii).map(([a, b]) => `${a.trim() || 'a'} ${b.trim() || 'b'}`);
  if (where === 'header' && schema.pattern !== undefined) add('space', inside, 'a b');
  return out;
}

export type Built = { body?: Buffer; search: string; headers: Record<string, string> };

/** The valid request with one mutation applied, as bytes on the wire. */
export function build(valid: ValidRequest, m?: Mutation): Built {
  const query = {
    ...Object.fromEntries(Object.entries(valid.query ?? {}).map(([k, v]) => [k, encodeURIComponent(v)])),
  };
  const headers = { ...(valid.headers ?? {}) };
  if (m?.where === 'query') query[m.path[0] as string] = m.value as string;
  if (m?.where === 'header') headers[m.path[0] as string] = m.value as string;
  const search = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
    .join('&');
  if (valid.body === undefined && m?.where !== 'body') return { search, headers };
  const body = m?.where === 'body' ? mutatedBody(valid.body, m) : Buffer.from(JSON.stringify(valid.body));
  return { body, search, headers };
}

const MARK = '\u{e000}bad-input-mark\u{e000}';

function mutatedBody(valid: unknown, m: Mutation): Buffer {
  if (m.raw !== undefined) return Buffer.from(m.raw);
  if (m.bytes && m.path.length === 0) return Buffer.from(m.bytes);
  const copy = structuredClone(valid);
  const put = (v: unknown) => {
    if (m.path.length === 0) return v;
    const parent = m.path.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], copy);
    (parent as Record<string | number, unknown>)[m.path[m.path.length - 1]] = v;
    return copy;
  };
  if (m.bytes) {
    const [before, after] = JSON.stringify(put(MARK)).split(MARK);
    return Buffer.concat([Buffer.from(before), Buffer.from(m.bytes), Buffer.from(after)]);
  }
  if (m.key !== undefined) {
    const target = m.path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], copy) as Record<
      string,
      unknown
    >;
    // A `__proto__` key in an object literal sets the prototype; on the wire it must be a plain key.
    target[MARK] = m.value;
    // A replacer function: a key such as `$&` must not be read as a replacement pattern.
    return Buffer.from(JSON.stringify(copy).replace(JSON.stringify(MARK), () => JSON.stringify(m.key)));
  }
  return Buffer.from(JSON.stringify(put(m.value)));
}

/** Every dotted path present in what was sent, so issues can be checked to name real fields. */
export function sentPaths(valid: ValidRequest, m: Mutation): Set<string> {
  const paths = new Set<string>(['']);
  let body: unknown = valid.body;
  if (m.where === 'body' && m.raw === undefined && !(m.bytes && m.path.length === 0)) {
    try {
      body = JSON.parse(mutatedBody(valid.body, m).toString('utf8')) as unknown;
    } catch {
      body = valid.body;
    }
  }
  if (body !== undefined) for (const p of pathsOf(body)) paths.add(dotted(p));
  for (const name of [...Object.keys(valid.query ?? {}), ...Object.keys(valid.headers ?? {})]) paths.add(name);
  if (m.where !== 'body') paths.add(dotted(m.path));
  return paths;
}
