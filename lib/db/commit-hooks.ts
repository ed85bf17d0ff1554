/**
 * Work that must wait until what a transaction wrote is visible to every other session: the wake of the loop that
 * sends what it queued. A wake sent before the commit finds nothing to claim, and what it was for waits for the next
 * poll. Hooks run once their transaction has committed, never for one rolled back, and at once for a statement
 * outside any transaction (it has committed already).
 */
type Hooks = (() => void)[];
type Transactional = { transaction: (fn: (tx: never) => Promise<unknown>, config?: never) => Promise<unknown> };

const open = new WeakMap<object, Hooks>();

/** Runs `hook` once the transaction `dbOrTx` belongs to has committed; now, when `dbOrTx` is no transaction. */
export function afterCommit(dbOrTx: object, hook: () => void): void {
  const hooks = open.get(dbOrTx);
  if (hooks) hooks.push(hook);
  else run([hook]);
}

function run(hooks: Hooks): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch (err) {
      console.error('A hook after a commit failed.', err);
    }
  }
}

/**
 * Makes `transaction` of `db` (and of each transaction it opens, for a savepoint inside one) collect the hooks its
 * statements add, run once the outermost transaction has committed. A savepoint's hooks join its transaction's: one
 * rolled back alone leaves a wake that finds nothing, which costs a claim, never a delivery.
 */
export function withCommitHooks<D extends object>(db: D): D {
  const target = db as unknown as Transactional;
  const transaction = target.transaction.bind(target);
  target.transaction = async (fn, config) => {
    const hooks: Hooks = [];
    const result = await transaction(
      ((tx: Transactional) => {
        collect(tx, hooks);
        return fn(tx as never);
      }) as never,
      config,
    );
    run(hooks);
    return result;
  };
  return db;
}

function collect(tx: Transactional, hooks: Hooks): void {
  open.set(tx, hooks);
  const nested = tx.transaction.bind(tx);
  tx.transaction = (fn, config) =>
    nested(
      ((inner: Transactional) => {
        collect(inner, hooks);
        return fn(inner as never);
      }) as never,
      config,
    );
}
