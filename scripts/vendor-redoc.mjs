#!/usr/bin/env node
// Puts Redoc's standalone build where the console's API reference page loads it (public/api-reference/), before
// `next build` and `npm run dev`: served by Next as a static file (compressed: 1.1 MB, 320 kB gzipped), from this
// server only. Its menu's footer shows Redocly's logo from their CDN, the one outside address the bundle loads by
// itself: left out here (an empty `src` fails at once and Redoc hides the image; the words stay).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { version } = require('redoc/package.json');
const OUTSIDE_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';

const text = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
if (!text.includes(OUTSIDE_LOGO)) {
  console.error(`Redoc ${version} no longer loads ${OUTSIDE_LOGO}: check what its bundle loads from outside.`);
  process.exit(1);
}
const dir = path.join(import.meta.dirname, '..', 'public', 'api-reference');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, `redoc-${version}.js`), text.replace(OUTSIDE_LOGO, '""'));
console.log(`vendor: public/api-reference/redoc-${version}.js`);
