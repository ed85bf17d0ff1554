/**
 * A module's export loaded the first time it is asked for, and remembered: `load()` starts it (once) and resolves
 * with it; `current()` is it once loaded, else null, so a component mounted later can render it at once.
 */
export function onDemand<T>(importer: () => Promise<T>) {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    load: (): Promise<T> => (loading ??= importer().then((value) => (loaded = value))),
    current: (): T | null => loaded,
  };
}
