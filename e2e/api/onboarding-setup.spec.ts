import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, expectError, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { anonymous, freshEmail, members, orgScope, PASSWORD, signedIn, tokenOf } from '../support/onboarding';

// A new installation: no demo, no users. Its own server on a fresh DATA_DIR, or on a fresh PostgreSQL
// database in the PostgreSQL run, without SMTP_URL, so invitation answers carry their link.

const PORT = E2E.port + 80;
const base = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : null;
const database = base ? `${base.pathname.slice(1)}_setup` : '';
const urlOf = (name: string) => Object.assign(new URL(base!), { pathname: `/${name}` }).toString();
let dir = '';
let env: Record<string, string> = {};
let server: Spawned;

async function onPostgres(statement: string) {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

const SETUP_URL = /(http:\/\/\S+)\/setup\?token=([A-Za-z0-9_-]{43})/g;
const setupTokens = (output: string) => [...output.matchAll(SETUP_URL)].map((m) => m[2]);

/** `npm run user:create -- ARGS` against this installation's database; what it printed and its exit code. */
function userCreate(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['node_modules/.bin/tsx', 'scripts/user-create.ts', ...args], {
      env: { ...process.env, SEED_DEMO: '0', ENCRYPTION_KEY: E2E.encryptionKey, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test.describe('a new installation starts with nothing', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });
  const setup = (token: string, email: string) => ({
    data: { token, name: 'First Admin', email, password: PASSWORD, organizationName: 'First Org' },
  });
  let adminEmail = '';

  test.beforeAll(async () => {
    // A spawned server on a fresh database runs every migration first: slow on a busy machine.
    test.setTimeout(120_000);
    if (base) {
      await onPostgres(`drop database if exists ${database} with (force)`);
      await onPostgres(`create database ${database}`);
      env = { DATABASE_URL: urlOf(database) };
    } else {
      dir = mkdtempSync(path.join(os.tmpdir(), 'svc-setup-'));
      env = { DATA_DIR: dir };
    }
    server = await spawnServer(PORT, env);
  });
  test.afterAll(async () => {
    await server?.stop();
    if (base) await onPostgres(`drop database if exists ${database} with (force)`);
    else rmSync(dir, { recursive: true, force: true });
  });

  test('the log has a one-time setup URL; a wrong token or a bad body changes nothing', async () => {
    const [token] = setupTokens(server.output());
    expect(token).toBeDefined();
    const anon = await anonymous(server.url);
    await expectError(await anon.post('/v1/setup', setup('x'.repeat(43), 'wrong@setup.test')), 404, 'not_found');
    await expectError(
      await anon.post('/v1/setup', { data: { ...setup(token, 'short@setup.test').data, password: 'short' } }),
      400,
      'invalid_request',
      ['password'],
    );
    await anon.dispose();
  });

  test('two setups at once: exactly one wins; then the token is void and the admin signs in', async () => {
    const [token] = setupTokens(server.output());
    const anon = await anonymous(server.url);
    const emails = [freshEmail('first'), freshEmail('second')];
    const answers = await Promise.all(emails.map((email) => anon.post('/v1/setup', setup(token, email))));
    const statuses = answers.map((a) => a.status());
    expect([...statuses].sort()).toEqual([201, 404]);
    const winner = statuses.indexOf(201);
    await expectError(answers[1 - winner], 404, 'not_found');
    adminEmail = emails[winner];
    const made = await answers[winner].json();
    expect(made).toMatchObject({
      user: { email: adminEmail, name: 'First Admin' },
      organization: { name: 'First Org' },
    });

    await expectError(await anon.post('/v1/setup', setup(token, freshEmail('late'))), 404, 'not_found');
    const admin = await signedIn(adminEmail, server.url);
    const orgs = (await (await admin.get('/v1/organizations')).json()).items;
    expect(orgs.map((o: { name: string }) => o.name)).toEqual(['First Org']);
    expect((await members(admin, orgs[0].id)).map((m) => [m.email, m.policies])).toEqual([
      [adminEmail, orgScope('OrganizationAdmin')],
    ]);
    const events = (await (await admin.get(`/v1/organizations/${orgs[0].id}/audit-events`)).json()).items;
    expect(events.map((e: { action: string }) => e.action)).toEqual(['sign_in.succeeded', 'organization.created']);
    await Promise.all([anon.dispose(), admin.dispose()]);
  });

  test('without SMTP_URL an invitation answer carries its link, which makes the account', async () => {
    const admin = await signedIn(adminEmail, server.url);
    const [org] = (await (await admin.get('/v1/organizations')).json()).items;
    const email = freshEmail('invitee');
    const res = await admin.post(`/v1/organizations/${org.id}/invitations`, {
      data: { email, policies: orgScope('BasicAccess') },
    });
    expect(res.status(), await res.text()).toBe(201);
    const { url } = await res.json();
    expect(url).toMatch(new RegExp(`/invite/[A-Za-z0-9_-]{43}$`));
    const anon = await anonymous(server.url);
    const accepted = await anon.post(`/v1/invitations/${tokenOf(url)}/accept`, {
      data: { name: 'Invitee', password: PASSWORD },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    await Promise.all([anon.dispose(), admin.dispose()]);
  });

  test('once a user exists no start logs a setup URL; user:create prints a set-password link that works once', async () => {
    const [old] = setupTokens(server.output());
    await server.stop();
    const email = freshEmail('operator-made');
    const made = await userCreate([
      '--email',
      email,
      '--name',
      'Made By Operator',
      '--organization',
      'First Org',
      '--admin',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const link = /\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(made.stdout);
    expect(link, made.stdout).not.toBeNull();
    expect((await userCreate(['--email', email, '--name', 'Again'])).code).toBe(1);

    server = await spawnServer(PORT, env);
    expect(setupTokens(server.output())).toEqual([]);
    const anon = await anonymous(server.url);
    await expectError(await anon.post('/v1/setup', setup(old, freshEmail('after'))), 404, 'not_found');
    const body = { data: { token: link![1], password: PASSWORD } };
    expect((await anon.post('/v1/set-password', body)).status()).toBe(204);
    await expectError(await anon.post('/v1/set-password', body), 404, 'not_found');
    if (base) {
      // An expired link (PostgreSQL only: the test moves its expiry in the database): 404, nothing changed.
      const late = await userCreate(['--email', freshEmail('late'), '--name', 'Late']);
      const lateToken = /token=([A-Za-z0-9_-]{43})/.exec(late.stdout)![1];
      const client = new pg.Client({ connectionString: urlOf(database) });
      await client.connect();
      await client
        .query(`update password_tokens set expires_at = now() - interval '1 second'`)
        .finally(() => client.end());
      await expectError(
        await anon.post('/v1/set-password', { data: { token: lateToken, password: PASSWORD } }),
        404,
        'not_found',
      );
    }
    const person = await signedIn(email, server.url);
    const [org] = (await (await person.get('/v1/organizations')).json()).items;
    expect((await members(person, org.id)).find((m) => m.email === email)?.policies).toEqual(
      orgScope('OrganizationAdmin'),
    );
    await Promise.all([anon.dispose(), person.dispose()]);
  });
});
