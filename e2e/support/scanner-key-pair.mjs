// Generates the secret-scanning key pair of one test server: prints the public half as
// SECRET_SCANNING_PUBLIC_KEYS and keeps the private half in the given file for the tests to sign with.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const [file, keyId] = process.argv.slice(2);
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
writeFileSync(file, JSON.stringify({ keyId, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) }), {
  mode: 0o600,
});
process.stdout.write(
  JSON.stringify([{ key_identifier: keyId, key: publicKey.export({ type: 'spki', format: 'pem' }) }]),
);
