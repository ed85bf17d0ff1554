/** Just enough JSON Schema (as zod-openapi writes it) to know what a field of a valid request may not be. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
};

export type OpenApiParameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
};

export type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: { 'application/json': { schema: JsonSchema } } };
};

export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export type Path = (string | number)[];

export class SchemaReader {
  constructor(private readonly doc: OpenApiDocument) {}

  resolve(schema: JsonSchema): JsonSchema {
    let at = schema;
    while (at.$ref) at = this.doc.components?.schemas?.[at.$ref.replace('#/components/schemas/', '')] ?? {};
    return at;
  }

  /** The alternatives of a union (anyOf/oneOf), flattened; a plain schema is its own only variant. */
  variants(schema: JsonSchema): JsonSchema[] {
    const s = this.resolve(schema);
    const alternatives = s.anyOf ?? s.oneOf;
    return alternatives ? alternatives.flatMap((v) => this.variants(v)) : [s];
  }

  /** The variant a valid value was written against (the one whose `kind` const or type matches). */
  variantOf(schema: JsonSchema, value: unknown): JsonSchema {
    const candidates = this.variants(schema).filter((v) => typeMatches(v, value));
    if (isObject(value))
      return (
        candidates.find((v) =>
          Object.entries(v.properties ?? {}).every(
            ([k, p]) => this.resolve(p).const === undefined || this.resolve(p).const === value[k],
          ),
        ) ??
        candidates[0] ??
        {}
      );
    return candidates[0] ?? {};
  }

  allowsNull(schema: JsonSchema): boolean {
    return this.variants(schema).some((v) => v.type === 'null' || (Array.isArray(v.type) && v.type.includes('null')));
  }

  /** The schema of the value at `path` inside a valid `value` of `schema`; a map's entries are its values' schema. */
  at(schema: JsonSchema, value: unknown, path: Path): JsonSchema {
    return this.walk(schema, value, path).schema ?? {};
  }

  /**
   * Whether the value at `path` lies inside a field that takes any JSON value (`{}` in the document, a message's
   * body): no value there is a wrong one, only text no database stores and a `__proto__` key are.
   */
  takesAnything(schema: JsonSchema, value: unknown, path: Path): boolean {
    return this.walk(schema, value, path).anything;
  }

  private walk(schema: JsonSchema, value: unknown, path: Path): { schema?: JsonSchema; anything: boolean } {
    let s: JsonSchema | undefined = schema;
    let v = value;
    for (const key of path) {
      if (!s) return { anything: false };
      const chosen = this.variantOf(s, v);
      const entries = typeof chosen.additionalProperties === 'object' ? chosen.additionalProperties : undefined;
      s = typeof key === 'number' ? chosen.items : (chosen.properties?.[key] ?? entries);
      if (s && isUnconstrained(this.resolve(s))) return { schema: s, anything: true };
      v = (v as Record<string | number, unknown>)[key];
    }
    return { schema: s, anything: false };
  }
}

/** A schema that says nothing of its value but in words: any JSON value passes it. */
const isUnconstrained = (schema: JsonSchema) =>
  Object.keys(schema).every((key) => ['description', 'title', 'examples', 'default'].includes(key));

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(schema: JsonSchema, value: unknown): boolean {
  if (schema.const !== undefined) return schema.const === value;
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual = jsonType(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

/** Every path inside a JSON value (objects and arrays included), the value itself as []. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...pathsOf(item, [...prefix, i])));
  else if (isObject(value)) for (const [k, item] of Object.entries(value)) out.push(...pathsOf(item, [...prefix, k]));
  return out;
}
