#!/usr/bin/env node
// Starts the console: generates next-auth's secret into DATA_DIR on first start, so no configuration is needed.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import {
  generatedSecretFile,
  SHARED_SECRETS,
  unsharedSecrets,
  unsharedSecretsMessage,
} from '../lib/crypto/shared-secrets.mjs';

// A log reader that goes away (EPIPE) must never stop the server: without a listener the error would be
// uncaught, and Next's error reporting would write it again, a loop that pins a core (next.js #96216).
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? '3000');
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
mkdirSync(dataDir, { recursive: true });

// On PostgreSQL the instances share these secrets, so none is generated (lib/crypto/shared-secrets.mjs, the rule
// lib/crypto/secret-box.ts applies to db:backup and db:restore too).
const unshared = unsharedSecrets(Boolean(process.env.DATABASE_URL), process.env);
if (unshared.length > 0) {
  console.error(unsharedSecretsMessage(unshared));
  process.exit(1);
}
// On the embedded database they are generated into DATA_DIR on first start; lib/crypto/secret-box.ts reads the key
// from its file, next-auth its secret from the environment.
for (const name of SHARED_SECRETS) {
  if (process.env[name]) continue;
  const file = generatedSecretFile(name, dataDir);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  if (name === 'NEXTAUTH_SECRET') process.env.NEXTAUTH_SECRET = readFileSync(file, 'utf8').trim();
}
process.env.NEXTAUTH_URL ??= `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV ??= dev ? 'development' : 'production';
// svc_build_info{version} names the build on /metrics; server/start.ts leaves the signals to this server.
process.env.SVC_VERSION ??= JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')).version;
process.env.SVC_CUSTOM_SERVER = '1';
// The connection's own address reaches the app in a header only this process can sign (lib/http/public-origin.ts).
const peerNonce = randomBytes(16).toString('hex');
process.env.SVC_PEER_NONCE = peerNonce;
const adminNonce = randomBytes(16).toString('hex');
process.env.SVC_ADMIN_NONCE = adminNonce;
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
let inFlight = 0;
const server = createServer((req, res) => {
  req.headers['x-svc-peer'] = `${peerNonce} ${req.socket.remoteAddress ?? 'unknown'}`;
  delete req.headers['x-svc-admin'];
  if (hsts) res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
  // Once shutting down, each keep-alive connection closes after its answer: the balancer opens its next one
  // to an instance that is staying, instead of sending into a socket this one is about to close.
  if (globalThis.__svcShuttingDown) res.setHeader('connection', 'close');
  inFlight++;
  res.once('close', () => inFlight--);
  void handle(req, res);
});
if (dev) server.on('upgrade', app.getUpgradeHandler());
server.listen(port, host, () => console.log(`Ready on http://${host}:${port}`));

// The embedded database's backups are asked of this process (it holds DATA_DIR's lock) over a socket in DATA_DIR:
// whoever may open that socket may read DATA_DIR anyway. Its requests carry a nonce no TCP client can send.
const adminSocket = path.join(dataDir, 'admin.sock');
const admin = process.env.DATABASE_URL
  ? null
  : createServer((req, res) => {
      req.headers['x-svc-admin'] = adminNonce;
      void handle(req, res);
    });
if (admin) {
  rmSync(adminSocket, { force: true }); // a crashed holder's; this process holds the lock now
  admin.on('error', (err) => console.error(`No backup socket at ${adminSocket}:`, err.message));
  admin.listen(adminSocket, () => chmodSync(adminSocket, 0o600));
}

// On PostgreSQL other instances take over, so stay until a balancer has seen the 503s: HAProxy's default checks
// (inter 2s, fall 3) take up to 6 s, and 10 s plus the drain stays inside Kubernetes' 30 s termination grace.
// The embedded database has one instance, nothing to hand over to: no wait.
const GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS || (process.env.DATABASE_URL ? 10_000 : 0));
const DRAIN_MS = 10_000;
const signalled = { count: 0, skipGrace: () => {} };
/**
 * SIGTERM (or SIGINT): /v1/health answers 503 at once and every answer closes its connection; after
 * SHUTDOWN_GRACE_MS (a second signal skips it) the server stops accepting, finishes what is in flight (up to 10 s),
 * hands back what its background jobs hold, closes the database and exits 0.
 */
async function shutdown() {
  if (signalled.count++ > 0) return signalled.skipGrace();
  globalThis.__svcShuttingDown = true;
  if (GRACE_MS > 0) await new Promise((resolve) => ((signalled.skipGrace = resolve), setTimeout(resolve, GRACE_MS)));
  server.close();
  server.closeIdleConnections();
  admin?.close();
  const deadline = Date.now() + DRAIN_MS;
  while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await globalThis.__svcCloseApp?.().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
