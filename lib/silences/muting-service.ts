import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { hook } from '../hooks';
import type { Matcher } from './matchers';

type Scope = { organizationId: string; projectId: string };

// The first key of the project's muting lock: no other advisory lock of the app uses it.
const MUTING_LOCK = 0x6d757465;

/**
 * Serializes, per project, the writes that change which silences match which alerts (an alert batch, a silence's
 * matchers or end): on PostgreSQL two of them committing at once would each miss the other's row. A silence write
 * takes it before locking the silence, as an alert batch does before touching silences: one order, no deadlock.
 */
export async function lockProjectMuting(tx: Tx, scope: Scope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${MUTING_LOCK}::int4, hashtext(${scope.projectId}::text))`);
}

/**
 * What a silence write asks of the alerts it may mute, without importing them (docs/architecture.md, "Floors"):
 * lib/alerts keeps the links and decides the notifications (lib/alerts/muting-service.ts), and server/hooks.ts
 * registers it. Both run in the silence write's transaction; a write that finds none fails rather than skip them.
 */
export type SilenceMuting = {
  /**
   * Links a silence to the unresolved alerts its matchers match, after its matchers or end changed, and sends
   * the notifications that decides; returns how many alerts it matches. `fresh`: just inserted, no links yet.
   */
  relinkSilence: (
    tx: Tx,
    scope: Scope,
    silence: { id: string; matchers: Matcher[]; endsAt: Date; matchedAlerts: number },
    now: Date,
    fresh?: boolean,
  ) => Promise<number>;
  /** Decides the notifications of the alerts a silence is linked to, after a change of its window alone. */
  renotifySilence: (tx: Tx, scope: Scope, silenceId: string, now: Date) => Promise<void>;
};

const muting = hook<SilenceMuting>('silence muting');

export const registerSilenceMuting = muting.register;

export const relinkSilence: SilenceMuting['relinkSilence'] = (...args) => muting.get().relinkSilence(...args);

export const renotifySilence: SilenceMuting['renotifySilence'] = (...args) => muting.get().renotifySilence(...args);
