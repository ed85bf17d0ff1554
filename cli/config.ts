import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Credentials = { accessToken: string; refreshToken: string; expiresAt: string };

/** What svc remembers per server, so a test server and production never share a login. */
export type ServerConfig = { credentials?: Credentials; defaultOrg?: string };
type ConfigFile = { servers: Record<string, ServerConfig> };

export type Env = Record<string, string | undefined>;

export function configDir(env: Env = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'svc');
}

export function credentialsPath(env: Env = process.env): string {
  return path.join(configDir(env), 'credentials.json');
}

/** The organizations area (where API keys and device login live): ORGS_URL, else SVC_URL, else a local app. */
export function orgsUrl(env: Env = process.env): string {
  return (env.ORGS_URL || env.SVC_URL || 'http://localhost:3000').replace(/\/+$/, '');
}

function readConfig(env: Env): ConfigFile {
  const file = credentialsPath(env);
  if (!existsSync(file)) return { servers: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConfigFile>;
    return { servers: parsed.servers ?? {} };
  } catch {
    return { servers: {} };
  }
}

/** Written to a private temporary file first, then renamed: never a half-written or world-readable moment. */
function writeConfig(config: ConfigFile, env: Env): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = credentialsPath(env);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
  chmodSync(file, 0o600);
}

export function loadServerConfig(server: string, env: Env = process.env): ServerConfig {
  return readConfig(env).servers[server] ?? {};
}

export function updateServerConfig(
  server: string,
  change: (current: ServerConfig) => ServerConfig,
  env: Env = process.env,
): void {
  const config = readConfig(env);
  const next = change(config.servers[server] ?? {});
  if (Object.keys(next).length === 0) delete config.servers[server];
  else config.servers[server] = next;
  if (Object.keys(config.servers).length === 0) rmSync(credentialsPath(env), { force: true });
  else writeConfig(config, env);
}

export function forgetCredentials(server: string, env: Env = process.env): void {
  updateServerConfig(
    server,
    (current) => {
      const next = { ...current };
      delete next.credentials;
      return next;
    },
    env,
  );
}
