import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended floor.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verified when the user does not exist, so the response time does not reveal which emails exist.
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  const target = storedHash ?? (await (decoyHash ??= hash('decoy password, never matches')));
  try {
    const ok = await verify(target, password);
    return ok && storedHash !== null;
  } catch {
    return false;
  }
}
