import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECLARATIONS } from './settings';

// The README's configuration table is checked against the declarations, so the one list cannot drift from the code.
const ROOT = path.resolve(__dirname, '../..');

type Row = { names: string[]; fallback: string; meaning: string };

function configurationRows(): Row[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'), readme.indexOf('\n## Documentation\n'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [names, fallback, ...meaning] = line.slice(2, -2).split(' | ');
      return {
        names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
        fallback,
        meaning: meaning.join(' | '),
      };
    });
}

const declared = Object.entries(DECLARATIONS);

describe("README.md's configuration table", () => {
  it('has a row for every declared variable, and declares every variable it lists, each once', () => {
    const listed = configurationRows().flatMap((row) => row.names);
    expect(listed.length).toBeGreaterThan(40);
    expect([...listed].sort()).toEqual(declared.map(([name]) => name).sort());
  });

  it("explains each variable with its declaration's line, and writes its default", () => {
    const rows = configurationRows();
    for (const [name, declaration] of declared) {
      const row = rows.find((r) => r.names.includes(name))!;
      expect(row.meaning, name).toBe(declaration.readme);
      if (declaration.fallback) expect(row.fallback, name).toContain(`\`${declaration.fallback}\``);
    }
  });
});
