import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from './metrics';

// docs/metrics.md is checked against prom-client's registry, so the reference cannot drift from the code.
const ROOT = path.resolve(__dirname, '../..');

/** Every module that defines a metric is a `metrics.ts` (checked below), so loading those registers them all. */
const modules = import.meta.glob('../*/metrics.ts', { eager: true });

type Row = { name: string; type: string; labels: string[] };

function documented(): Row[] {
  const text = readFileSync(path.join(ROOT, 'docs/metrics.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `svc_'))
    .flatMap((line) => {
      const [names, type, labels] = line.split('|').slice(1, 4);
      // Label names are the backticked words outside parentheses (inside: the values they take).
      const labelNames = [...labels.replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
      // A row may name several metrics (`svc_process_*`, `svc_nodejs_*`): a trailing * stands for a prefix.
      return names
        .split(',')
        .map((name) => ({ name: name.trim().replaceAll('`', ''), type: type.trim(), labels: labelNames }));
    });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('docs/metrics.md', () => {
  it('is read from the modules that define metrics, and only those define any, one way', () => {
    expect(Object.keys(modules).length).toBeGreaterThan(3);
    const files = [...sourceFiles(path.join(ROOT, 'lib')), ...sourceFiles(path.join(ROOT, 'server'))].map((file) => ({
      file: path.relative(ROOT, file).split(path.sep).join('/'),
      text: readFileSync(file, 'utf8'),
    }));
    // prom-client is made into metrics in one place: counter(), gauge() and histogram() of lib/observability/metrics.ts.
    const constructing = files.filter(({ text }) => /new (client\.)?(Counter|Gauge|Histogram|Summary)\b/.test(text));
    expect(constructing.map(({ file }) => file)).toEqual(['lib/observability/metrics.ts']);
    const importing = files.filter(({ text }) => /from 'prom-client'/.test(text));
    expect(importing.map(({ file }) => file)).toEqual(['lib/observability/metrics.ts']);
    // A feature declares its metrics in its metrics.ts, which the glob above loads.
    const declaring = files.filter(({ text }) =>
      /import \{[^}]*\b(counter|gauge|histogram)\b[^}]*\} from '[./]*observability\/metrics'/.test(text),
    );
    expect(declaring.filter(({ file }) => !file.endsWith('/metrics.ts'))).toEqual([]);
  });

  it('documents every registered metric, with its type and labels, and nothing that is not registered', () => {
    const registered = registry.getMetricsAsArray() as unknown as {
      name: string;
      type: string;
      labelNames: string[];
    }[];
    const rows = documented();
    const wildcards = rows.filter((r) => r.name.endsWith('*')).map((r) => r.name.slice(0, -1));
    const own = registered.filter((m) => !wildcards.some((prefix) => m.name.startsWith(prefix)));
    const actual = own
      .map((m) => ({
        name: m.name,
        type: String(m.type),
        labels: [...m.labelNames].sort(),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const expected = rows.filter((r) => !r.name.endsWith('*')).sort((a, b) => a.name.localeCompare(b.name));
    expect(expected).toEqual(actual);
    for (const prefix of wildcards)
      expect(
        registered.some((m) => m.name.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });
});
