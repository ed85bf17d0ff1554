import { sql, type SQL } from 'drizzle-orm';

// Rules the claim (delivery-service.ts) and the retention's pass (expiry-service.ts) state in TypeScript, and the
// PL/pgSQL functions of migrations 0026 and 0027 state again: a migration is history and cannot import them.
// `delivery-rules.test.ts` reads those functions from a migrated database and fails when either side changes alone.

/** The columns of a subscription a batch is built from: the claim's candidates and the refill's (0027). */
export const LOCKED_COLUMNS_TEXT = `s.id, s.slug, s.organization_id, s.project_id, s.queue_id, s.target->>'url' as url,
    (s.target->>'timeoutSeconds')::int as timeout_seconds, s.secret_box, s.previous_secret_box,
    s.previous_secret_until, s.retry_max_attempts, s.retry_min_backoff_seconds, s.retry_max_backoff_seconds`;

/** A subscription (`s`) the engine delivers for: active, pushing over HTTPS, with a secret to sign with. */
export const DELIVERABLE_TEXT = `s.state = 'active' and s.target->>'kind' = 'https' and s.secret_box is not null`;

/** When a message of queue `q` must have been published (or redriven, or dead-lettered) by to be kept. */
export const RETENTION_START = sql.raw('now() - make_interval(secs => q.retention_seconds)');

/**
 * Whether a pending message `m` is still within its queue's retention (`since`: the retention's start): a message
 * past it is never sent, whether or not the expiry pass has removed it yet. A redriven one counts from its redrive.
 */
export const kept = (since: SQL) => sql`(m.published_at >= ${since} or m.dead_lettered_at >= ${since})`;
