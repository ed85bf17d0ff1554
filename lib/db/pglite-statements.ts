import type { PGlite, QueryOptions, parse, protocol } from '@electric-sql/pglite';

type PgliteModule = { parse: typeof parse; protocol: typeof protocol };
type Message = { name: string; dataTypeIDs?: number[] };

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Named statements on PGlite. Its `query()` parses and plans every statement again and crosses into the
 * WASM backend once per protocol message (Parse, Describe, Bind, Describe, Execute, Sync); a hot statement
 * here is parsed once (Parse and Describe, for its parameter types), then runs as Bind, Describe, Execute
 * and Sync in one crossing. Measured in process on the silence PATCH's statement: 1.7 ms of CPU per run
 * through `query()`, 0.7 named. Like `query()`, it waits for any open transaction and holds the backend
 * while it runs, so it must never be called from inside a transaction (it would wait for itself).
 */
export function pgliteStatements(client: PGlite, { protocol, parse }: PgliteModule) {
  const { serialize } = protocol;
  // Parameter types by statement name; statements live as long as the client's one session.
  const prepared = new Map<string, number[]>();

  async function prepare(text: string, name: string): Promise<number[]> {
    const { messages } = await client.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    );
    const description = (messages as Message[]).find((m) => m.name === 'parameterDescription');
    const types = description?.dataTypeIDs ?? [];
    prepared.set(name, types);
    return types;
  }

  return (text: string, values: unknown[], name: string, options?: QueryOptions): Promise<{ rows: unknown[] }> =>
    client._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        const types = prepared.get(name) ?? (await prepare(text, name));
        // As query() serializes parameters: by the type the statement declares, else as text.
        const serialized = values.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serializer = options?.serializers?.[types[i]] ?? client.serializers[types[i]];
          return serializer ? serializer(value) : String(value);
        });
        const { messages } = await client.execProtocol(
          concat([
            serialize.bind({ statement: name, values: serialized }),
            serialize.describe({ type: 'P' }),
            serialize.execute({}),
            serialize.sync(),
          ]),
        );
        return parse.parseResults(messages, client.parsers, options)[0] ?? { rows: [] };
      }),
    );
}
