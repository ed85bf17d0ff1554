// `npm run user:create -- --email … --name … [--organization …] [--admin]`: makes a user without a password and
// prints a one-time link (24 hours) to choose one, for operators without a browser at hand. On the embedded
// database the server must be stopped first: only one process may open DATA_DIR.
import './settings-first';
import { Command } from 'commander';
import { closeDb } from '../lib/db/client';
import { SYSTEM_ACTOR } from '../lib/audit/source';
import { configuredOrigin } from '../lib/http/public-origin';
import { ApiError } from '../lib/errors';
import { emailAddress, organizationName, personName } from '../lib/onboarding/schema';
import { createUserWithLink } from '../lib/onboarding/password-service';

const options = new Command()
  .requiredOption('--email <email>')
  .requiredOption('--name <name>')
  .option('--organization <name>', 'join this organization, or make it (with the user as its OrganizationAdmin)')
  .option('--admin', 'join as OrganizationAdmin (else BasicAccess)', false)
  .parse()
  .opts<{ email: string; name: string; organization?: string; admin: boolean }>();

const input = {
  email: emailAddress.safeParse(options.email),
  name: personName.safeParse(options.name),
  organization: options.organization === undefined ? null : organizationName.safeParse(options.organization),
};
for (const [field, parsed] of Object.entries(input)) {
  if (parsed && !parsed.success) {
    console.error(`--${field}: ${parsed.error.issues[0].message}`);
    process.exit(2);
  }
}
if (options.admin && !options.organization) {
  console.error('--admin needs --organization: an administrator is one of an organization.');
  process.exit(2);
}
const operator = { ...SYSTEM_ACTOR, name: `operator (${process.env.USER ?? 'unknown'})` };
try {
  const made = await createUserWithLink(
    { email: input.email.data!, name: input.name.data!, organization: input.organization?.data, admin: options.admin },
    { actor: operator, context: { requestId: null, ip: null, userAgent: null } },
  );
  const origin = configuredOrigin() ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const where = made.organization ? ` in ${made.organization.name} (${made.policy})` : '';
  console.error(
    `User ${made.user.email} made${where}. Their one-time link to choose a password, valid until ${made.expiresAt.toISOString()}:`,
  );
  console.log(`${origin}/set-password?token=${made.token}`);
} catch (err) {
  if (!(err instanceof ApiError && err.code === 'email_taken')) throw err;
  console.error(`A user with the email ${options.email} already exists; nothing changed.`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
