/**
 * The embedded database's own thread (see lib/db/pglite-thread.ts): PGlite's WASM backend runs here, so a
 * query never holds the server's event loop. Plain JavaScript, loaded by Node as it is, outside Next's bundle.
 *
 * Messages in: `{ id, op, ... }`; out: `{ id, result }` or `{ id, error }`. Operations run as they arrive and
 * PGlite's own locks order them, as they would in one thread: a query waits for an open transaction.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { copyTree, syncTree } from './snapshot-copy.mjs';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

// pg_trgm: the trigram indexes behind the lists' `q` (migration 0010).
const client = new PGlite(workerData.dataDir, { extensions: { pg_trgm } });
const { serialize } = protocol;
/** Open transactions by id: PGlite's transaction object, and how to end it. */
const transactions = new Map();
/** Prepared (named) statements by name: their parameter types and row description. */
const prepared = new Map();
const ROLLBACK = Symbol('rollback');

/** Columns of these types come back as PostgreSQL's text; the caller applies its own parsers to them. */
function queryOptions({ rowMode, keepText } = {}) {
  const parsers = {};
  for (const type of keepText ?? []) parsers[type] = (value) => value;
  return { rowMode, parsers };
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function prepare(text, name) {
  const { messages } = await client.execProtocol(
    concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    { syncToFs: false },
  );
  const found = (kind) => messages.find((m) => m.name === kind);
  const statement = { types: found('parameterDescription')?.dataTypeIDs ?? [], rows: found('rowDescription') ?? null };
  prepared.set(name, statement);
  return statement;
}

/**
 * A named statement: parsed once (Parse and Describe, for its parameter types and row description), then
 * run as Bind, Execute and Sync in one crossing into the backend. `query()` parses and plans every statement
 * again and crosses once per protocol message. Like `query()`, it waits for any open transaction.
 */
function named({ text, values, name, options }) {
  return client._runExclusiveTransaction(() =>
    client.runExclusive(async () => {
      const { types, rows } = prepared.get(name) ?? (await prepare(text, name));
      const serialized = values.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = client.serializers[types[i]];
        return serializer ? serializer(value) : String(value);
      });
      const { messages } = await client.execProtocol(
        concat([serialize.bind({ statement: name, values: serialized }), serialize.execute({}), serialize.sync()]),
      );
      const described = rows ? [rows, ...messages] : messages;
      return parse.parseResults(described, client.parsers, queryOptions(options))[0] ?? { rows: [], fields: [] };
    }),
  );
}

/** Resolves once the transaction is open (its callback entered); `end` commits or rolls it back. */
function begin(id) {
  return new Promise((opened, failed) => {
    const open = {};
    open.settled = client
      .transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            Object.assign(open, { tx, commit: resolve, rollback: () => reject(ROLLBACK) });
            transactions.set(id, open);
            opened();
          }),
      )
      .finally(() => transactions.delete(id));
    // Fails begin when BEGIN itself is refused; after that, `end` reports how the transaction ended.
    open.settled.catch(failed);
  });
}

/** An open transaction by its id; a statement naming one that has ended fails. */
function openTransaction(id) {
  const open = transactions.get(id);
  if (!open) throw new Error('The transaction is no longer open.');
  return open;
}

async function end({ transaction, commit }) {
  const open = openTransaction(transaction);
  if (commit) open.commit();
  else open.rollback();
  try {
    await open.settled;
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
}

/** Where a query runs: in its transaction when it names one, else on its own. */
function on(transaction) {
  return transaction === undefined ? client : openTransaction(transaction).tx;
}

/**
 * A consistent copy of the data directory into `into`, for a backup (lib/backup): copied while statements go
 * on, then made exact in a transaction that holds the backend still after a checkpoint has written every
 * page, so the copy opens as the database stood at that instant.
 */
async function snapshot({ into }) {
  // A file's mtime comes from a coarser clock than Date.now(): each pass looks back a little further.
  const copied = Date.now() - 100;
  await copyTree(workerData.dataDir, into);
  // A second pass while statements go on catches up with what changed during the first, so the pass that
  // holds the backend has only the last moments' pages to write.
  const caughtUp = Date.now() - 100;
  await syncTree(workerData.dataDir, into, copied);
  let heldMs = 0;
  await client.transaction(async (tx) => {
    const held = performance.now();
    await tx.exec('checkpoint');
    await syncTree(workerData.dataDir, into, caughtUp);
    heldMs = performance.now() - held;
  });
  return { heldMs };
}

const operations = {
  query: ({ text, params, options, transaction }) => on(transaction).query(text, params, queryOptions(options)),
  exec: ({ text, transaction }) => on(transaction).exec(text),
  named,
  begin: ({ id }) => begin(id),
  end,
  snapshot,
  close: () => client.close(),
};

/** A result as the caller needs it: rows, their fields and the count; nothing PGlite keeps for itself. */
function resultOf(value) {
  if (Array.isArray(value)) return value.map(resultOf);
  if (value && typeof value === 'object' && 'rows' in value)
    return { rows: value.rows, fields: value.fields, affectedRows: value.affectedRows };
  return value ?? null;
}

/** An error's own fields (PostgreSQL's code, constraint, detail…), without the statement's parameters. */
function errorOf(err) {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out = { name: err.name, message: err.message };
  for (const [key, value] of Object.entries(err)) {
    if (key !== 'params' && (value === null || ['string', 'number', 'boolean'].includes(typeof value)))
      out[key] = value;
  }
  return out;
}

// Operations queue on PGlite's lock: one's backend time is from when the one before it ended (or it arrived).
let lastEnded = 0;
parentPort.on('message', (message) => {
  const arrived = performance.now();
  const ranMs = () => {
    const now = performance.now();
    const ms = now - Math.max(arrived, lastEnded);
    lastEnded = now;
    return ms;
  };
  Promise.resolve()
    .then(() => operations[message.op](message))
    .then(
      (result) => parentPort.postMessage({ id: message.id, result: resultOf(result), ranMs: ranMs() }),
      (err) => parentPort.postMessage({ id: message.id, error: errorOf(err), ranMs: ranMs() }),
    );
});

await client.waitReady;
parentPort.postMessage({ ready: true });
