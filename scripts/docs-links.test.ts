import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';

// The README and docs/ link to each other and name files of the code: both rot silently when things move.
const root = path.resolve(import.meta.dirname, '..');
const markdown = new MarkdownIt();
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
];
const repoPath =
  /^(?:app|bench|cli|components|docs|drizzle|e2e|lib|scripts)\/[\w.@()[\]/-]+\.(?:ts|tsx|mjs|md|sql|sh|json|css|svg)$/;

function tokensOf(file: string) {
  return markdown.parse(readFileSync(path.join(root, file), 'utf8'), {}).flatMap((t) => [t, ...(t.children ?? [])]);
}

/** The anchors a page offers, as GitHub makes them from its headings (duplicates get -1, -2, …). */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = tokensOf(file);
  return new Set(tokens.flatMap((t, i) => (t.type === 'heading_open' ? [slugger.slug(tokens[i + 1].content)] : [])));
}

describe.each(docs)('%s', (file) => {
  const tokens = tokensOf(file);

  it('links only to files and headings that exist', () => {
    const hrefs = tokens.filter((t) => t.type === 'link_open').map((t) => t.attrGet('href') ?? '');
    const broken = hrefs.filter((href) => {
      if (/^[a-z]+:/i.test(href)) return false;
      const [target, anchor] = href.split('#');
      const resolved = target ? path.join(path.dirname(file), decodeURI(target)) : file;
      if (!existsSync(path.join(root, resolved))) return true;
      return anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('names only files of the code that exist', () => {
    const named = tokens.filter((t) => t.type === 'code_inline' && repoPath.test(t.content)).map((t) => t.content);
    expect(named.filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
  });
});

it('the README links every document in docs/', () => {
  const linked = tokensOf('README.md')
    .filter((t) => t.type === 'link_open')
    .map((t) => (t.attrGet('href') ?? '').split('#')[0]);
  expect(docs.filter((d) => d !== 'README.md' && !linked.includes(d))).toEqual([]);
});

it('docs/dependencies.md says why each package of package.json is there', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, object | undefined>;
  const packages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  const rows = readFileSync(path.join(root, 'docs/dependencies.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .map((line) => line.split('|').map((cell) => cell.trim()));
  // A row's first cell names its packages, comma-separated (`next-auth (v4)`: the name before the space); its
  // second says why. `@types/x` counts as said when the `@types/…` row names x.
  const named = rows.flatMap(([, first, why]) =>
    why ? first.split(',').map((name) => name.trim().split(' ')[0]) : [],
  );
  const typesRow = rows.find(([, first]) => first.split(',').some((name) => name.trim() === '@types/…'))?.[2] ?? '';
  const said = (name: string) =>
    named.includes(name) ||
    (name.startsWith('@types/') && new RegExp(`\\b${name.slice('@types/'.length)}\\b`).test(typesRow));
  expect(packages.length).toBeGreaterThan(40);
  expect(packages.filter((name) => !said(name))).toEqual([]);
});
