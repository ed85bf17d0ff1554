import { setTimeout as sleep } from 'node:timers/promises';
import { Command } from 'commander';
import { credentialsPath, forgetCredentials, loadServerConfig, orgsUrl, updateServerConfig } from '../config';
import { CliError } from '../errors';
import { ApiClient, credentialsFrom, postForm } from '../http';
import { listOrganizations } from '../orgs';
import { say } from '../output';

const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

type DeviceCode = {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
};

/** Revokes a saved login at the server (RFC 7009); either token ends both. */
async function revokeAtServer(server: string, refreshToken: string): Promise<void> {
  const { res, body } = await postForm(server, '/oauth/revoke', {
    token: refreshToken,
    token_type_hint: 'refresh_token',
  });
  if (!res.ok) throw new CliError(body.error_description ?? `The server answered ${res.status} to the revocation.`);
}

/** RFC 8628 §3.4–3.5: poll at the interval the server asks for, slowing down when told to. */
async function pollForTokens(server: string, code: DeviceCode) {
  let interval = code.interval ?? 5;
  const deadline = Date.now() + code.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const { res, body } = await postForm(server, '/oauth/token', {
      grant_type: DEVICE_GRANT_TYPE,
      device_code: code.device_code,
    });
    if (res.ok) return credentialsFrom(body);
    switch (body.error) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        interval += 5;
        continue;
      case 'too_many_requests':
        interval = Math.max(interval, Number(res.headers.get('retry-after')) || interval);
        continue;
      case 'access_denied':
        throw new CliError('The login was denied in the console.');
      case 'expired_token':
        throw new CliError('The code expired before it was approved. Run `svc login` again.');
      default:
        throw new CliError(body.error_description ?? `The server answered ${res.status} while waiting for approval.`);
    }
  }
  throw new CliError('The code expired before it was approved. Run `svc login` again.');
}

async function login(): Promise<void> {
  const server = orgsUrl();
  const { res, body } = await postForm(server, '/oauth/device/code', {});
  const code = body as unknown as DeviceCode & { error_description?: string };
  if (!res.ok || !code.device_code)
    throw new CliError(code.error_description ?? `The server answered ${res.status} to the login request.`);
  say(`First copy your one-time code: ${code.user_code}`);
  say(`Then open ${code.verification_uri} in a browser, sign in and approve it`);
  if (code.verification_uri_complete) say(`(or open ${code.verification_uri_complete} directly).`);
  say('Waiting for approval…');
  const credentials = await pollForTokens(server, code);

  const previous = loadServerConfig(server).credentials;
  updateServerConfig(server, (current) => ({ ...current, credentials }));
  // A second login replaces the first; the first should not stay valid on the server.
  if (previous) await revokeAtServer(server, previous.refreshToken).catch(() => undefined);

  // The new login, not an SVC_API_KEY that may also be set.
  const orgs = await listOrganizations(new ApiClient({ ...process.env, SVC_API_KEY: undefined }));
  say(`Logged in to ${server}. Credentials saved in ${credentialsPath()}.`);
  say(orgs.length ? `Organizations: ${orgs.map((o) => o.name).join(', ')}.` : 'You are not in any organization yet.');
}

async function logout(): Promise<void> {
  const server = orgsUrl();
  const { credentials } = loadServerConfig(server);
  if (!credentials) {
    say(`Not logged in to ${server}.`);
    return;
  }
  // Revoke first: if the server cannot be reached, the credentials stay so that logout can be retried.
  await revokeAtServer(server, credentials.refreshToken);
  forgetCredentials(server);
  say(`Logged out of ${server}; the login was revoked and its credentials deleted.`);
}

export function loginCommand(): Command {
  return new Command('login')
    .description('Log in with your browser: prints a code to approve in the console (OAuth device login)')
    .action(login);
}

export function logoutCommand(): Command {
  return new Command('logout')
    .description('Revoke the login at the server and delete the saved credentials')
    .action(logout);
}
