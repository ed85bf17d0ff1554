const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const SEPARATOR = 0xff;
const utf8 = new TextEncoder();

/**
 * An alert's identity as Alertmanager computes it (prometheus/common `labelSetToFingerprint`): FNV-1a 64 over the
 * label names sorted bytewise, each `name 0xFF value 0xFF` in UTF-8, as 16 lowercase hex digits. Labels with an
 * empty value must already be dropped. Names are ASCII (`[a-zA-Z_][a-zA-Z0-9_]*`), so a code-unit sort is bytewise.
 */
export function fingerprintOf(labels: Readonly<Record<string, string>>): string {
  let hash = OFFSET;
  const mix = (byte: number) => {
    hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
  };
  for (const name of Object.keys(labels).sort()) {
    for (const byte of utf8.encode(name)) mix(byte);
    mix(SEPARATOR);
    for (const byte of utf8.encode(labels[name])) mix(byte);
    mix(SEPARATOR);
  }
  return hash.toString(16).padStart(16, '0');
}
