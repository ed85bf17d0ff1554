// `npm run user:reset-2fa -- EMAIL`: for a user locked out of every second factor. Removes their TOTP, passkeys and
// recovery codes and ends their sessions, on whichever database the environment names (DATA_DIR or DATABASE_URL).
// On the embedded database the server must be stopped first: only one process may open DATA_DIR.
import './settings-first';
import { closeDb } from '../lib/db/client';
import { SYSTEM_ACTOR } from '../lib/audit/source';
import { resetSecondFactors } from '../lib/second-factor/service';

const email = process.argv[2];
if (!email) {
  console.error('usage: npm run user:reset-2fa -- EMAIL');
  process.exit(2);
}
const operator = { ...SYSTEM_ACTOR, name: `operator (${process.env.USER ?? 'unknown'})` };
const reset = await resetSecondFactors(email, {
  actor: operator,
  context: { requestId: null, ip: null, userAgent: null },
});
await closeDb();
if (!reset) {
  console.error(`No user with the email ${email}; nothing changed.`);
  process.exit(1);
}
console.error(`Second factors of ${email} removed and their sessions ended; they sign in with the password alone now.`);
