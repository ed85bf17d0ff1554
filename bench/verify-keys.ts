import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';

/**
 * Verifications per second of a cached API key, in process: the checksum, the SHA-256 and the cache hit
 * that every request with a key pays once the key has been seen. Uses its own embedded database.
 */
export async function measureKeyVerification(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-verify-'));
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  const { getDb, closeDb } = await import('../lib/db/client');
  const { seedDemoData } = await import('../server/demo/seed');
  const t = await import('../lib/db/schema');
  const { generateApiKey, displayPrefix, sha256Hex } = await import('../lib/auth/api-key-format');
  const { principalForApiKey } = await import('../lib/auth/service');
  try {
    const db = await getDb();
    await seedDemoData(db);
    const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
    const [ada] = await db.select().from(t.users).where(eq(t.users.email, 'ada@acme.test'));
    const key = generateApiKey();
    await db.insert(t.apiKeys).values({
      organizationId: acme.id,
      name: 'verify',
      prefix: displayPrefix(key),
      secretHash: sha256Hex(key),
      ownerType: 'user',
      ownerId: ada.id,
    });
    if (!(await principalForApiKey(key))) throw new Error('the key did not verify');
    const deadline = performance.now() + 2000;
    let n = 0;
    while (performance.now() < deadline) {
      for (let i = 0; i < 1000; i++) await principalForApiKey(key);
      n += 1000;
    }
    return n / 2;
  } finally {
    await closeDb();
    rmSync(dir, { recursive: true, force: true });
  }
}
