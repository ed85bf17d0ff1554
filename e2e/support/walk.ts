import type { Locator, Page } from '@playwright/test';
import pg from 'pg';
import { spawnServer, type Spawned } from './spawn-server';

/** A statement on this machine's PostgreSQL outside any app database: a walk's empty database made or dropped. */
export async function onPostgres(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

/**
 * A new installation: the built app on an empty PostgreSQL database of its own, named after `name` and this process,
 * with `env`. `remove` stops the server and drops the database.
 */
export async function newInstallation(
  port: number,
  name: string,
  env: Record<string, string> = {},
): Promise<{ server: Spawned; remove: () => Promise<void> }> {
  const database = `${name}_${process.pid}`;
  await onPostgres(`drop database if exists ${database} with (force)`);
  await onPostgres(`create database ${database}`);
  const server = await spawnServer(port, {
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_NAMESPACE: `${name}-${Date.now()}-`,
    ...env,
  });
  const remove = async () => {
    await server.stop();
    await onPostgres(`drop database if exists ${database} with (force)`);
  };
  return { server, remove };
}

/**
 * The steps a person takes on a walk through the console, counted as the walk takes them: a key pressed on a
 * control (a click, a link followed, a copy button), a field filled, and what the walk adds itself (a paste, a
 * command run in a terminal, the browser's Back).
 */
export class Steps {
  count = 0;

  /** A step the walk takes outside these helpers. */
  add(): void {
    this.count++;
  }

  async press(page: Page, control: Locator, key = 'Enter'): Promise<void> {
    await control.focus();
    await page.keyboard.press(key);
    this.count++;
  }

  async typeInto(page: Page, field: Locator, text: string): Promise<void> {
    await field.focus();
    await page.keyboard.type(text);
    this.count++;
  }
}
