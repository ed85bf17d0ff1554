#!/usr/bin/env node
// Starts the console: generates next-auth's secret into DATA_DIR on first start, so no configuration is needed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '3000';
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
mkdirSync(dataDir, { recursive: true });

if (!process.env.NEXTAUTH_SECRET) {
  const file = path.join(dataDir, 'nextauth-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  process.env.NEXTAUTH_SECRET = readFileSync(file, 'utf8').trim();
}
process.env.NEXTAUTH_URL ??= `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
process.env.DATA_DIR = dataDir;

if (!dev && !existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) {
  console.error("No production build found: run `npm run build` first (the README's start command does).");
  process.exit(1);
}

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const child = spawn(process.execPath, [nextBin, dev ? 'dev' : 'start', '-p', port, '-H', host], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
