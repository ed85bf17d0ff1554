#!/usr/bin/env node
// Starts the console: generates next-auth's secret into DATA_DIR on first start, so no configuration is needed.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? '3000');
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
mkdirSync(dataDir, { recursive: true });

if (!process.env.NEXTAUTH_SECRET) {
  const file = path.join(dataDir, 'nextauth-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  process.env.NEXTAUTH_SECRET = readFileSync(file, 'utf8').trim();
}
// Likewise the key that seals secrets which must stay readable (lib/crypto/secret-box.ts).
if (!process.env.ENCRYPTION_KEY) {
  const file = path.join(dataDir, 'encryption-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
}
process.env.NEXTAUTH_URL ??= `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV ??= dev ? 'development' : 'production';
// The connection's own address reaches the app in a header only this process can sign (lib/http/public-origin.ts).
const peerNonce = randomBytes(16).toString('hex');
process.env.SVC_PEER_NONCE = peerNonce;
// Same precedence as configuredOrigin() in lib/http/public-origin.ts: an https public origin gets HSTS.
const hsts = (process.env.APP_URL || process.env.NEXTAUTH_URL).startsWith('https:');

if (!dev && !existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) {
  console.error("No production build found: run `npm run build` first (the README's start command does).");
  process.exit(1);
}

// A custom server around Next instead of `next start`: Next route handlers cannot see the socket.
const { default: next } = await import('next');
const app = next({ dev, hostname: host, port });
await app.prepare();
const handle = app.getRequestHandler();
const server = createServer((req, res) => {
  req.headers['x-svc-peer'] = `${peerNonce} ${req.socket.remoteAddress ?? 'unknown'}`;
  if (hsts) res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
  void handle(req, res);
});
if (dev) server.on('upgrade', app.getUpgradeHandler());
server.listen(port, host, () => console.log(`Ready on http://${host}:${port}`));
