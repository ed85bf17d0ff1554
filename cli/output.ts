/** Data (a key, a table, JSON) goes to stdout, so `$(svc …)` captures exactly it. */
export function out(text: string): void {
  process.stdout.write(text);
}

/** Everything meant for the person goes to stderr. */
export function say(line: string): void {
  process.stderr.write(`${line}\n`);
}
