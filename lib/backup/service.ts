import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { dataDir, snapshotEmbeddedDatabase } from '../db/client';
import { settings } from '../settings/settings';

/** Where the running server puts the copies a backup asks for: inside DATA_DIR, so only its owner reads them. */
export const SNAPSHOTS_DIR = '.backup-snapshots';

/**
 * `POST /admin/snapshot`, only over DATA_DIR/admin.sock: scripts/start.mjs marks requests that came through that
 * socket (file permissions are its authentication) with a per-process nonce no TCP client can send. Answers the
 * directory of a consistent copy of the embedded database, which `npm run db:backup` reads and removes.
 */
export async function snapshotRequest(req: Request): Promise<Response> {
  const nonce = settings().SVC_ADMIN_NONCE;
  if (!nonce || req.headers.get('x-svc-admin') !== nonce) return new Response('Not Found', { status: 404 });
  const parent = path.join(dataDir(), SNAPSHOTS_DIR);
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const into = path.join(parent, randomBytes(8).toString('hex'));
  const started = performance.now();
  const { heldMs } = await snapshotEmbeddedDatabase(into);
  // `heldMs`: the last pass, during which statements wait; `ms`: the whole copy.
  return Response.json({ dir: into, ms: Math.round(performance.now() - started), heldMs: Math.round(heldMs) });
}
