/**
 * What a lower floor asks of the features above it (docs/architecture.md, "Floors"). The floor declares a hook,
 * `hook<T>(name)`, and reads its answer; server/hooks.ts registers every answer, by explicit calls, when the server
 * module loads; a unit test gets them from its database fixture (server/testing/test-database.ts). Reading a hook
 * nobody registered throws: a check is never skipped for want of its answer.
 *
 * One table per process, on globalThis: Next builds start-up (instrumentation.ts) and each route as module graphs of
 * their own, so a variable of a module set at start-up is not the one a route's copy of that module reads.
 */
const table = ((globalThis as unknown as { __svcHooks?: Map<string, unknown> }).__svcHooks ??= new Map());

export type Hook<T> = {
  /** Sets the answer; registering again replaces it. */
  register: (answer: T) => void;
  /** The answer; throws when none is registered. */
  get: () => T;
  /** The answer, or undefined: for a hook whose absence has a safe meaning (no invitation, no figures yet). */
  find: () => T | undefined;
};

export function hook<T>(name: string): Hook<T> {
  return {
    register: (answer) => void table.set(name, answer),
    get: () => {
      if (!table.has(name)) throw new Error(`The ${name} hook is not registered (server/hooks.ts registers it).`);
      return table.get(name) as T;
    },
    find: () => table.get(name) as T | undefined,
  };
}
