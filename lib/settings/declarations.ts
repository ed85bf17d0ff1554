import { count, delays, duration, flag, list, oneOf, proxyCount, text, url } from './kinds';

// Rows of the README's configuration table that explain several variables at once.
const LISTEN = 'where the server listens (`HOST=0.0.0.0` behind a load balancer)';
const ORIGIN = "the console's public origin (cookie writes must come from it)";
const OIDC =
  "switch on single sign-on with any OpenID Connect provider (users must already exist; they are not asked for a second factor here: their provider's policy applies)";
const API_LIMIT = 'authenticated `/v1` requests per principal (user or bot) per window';
const SIGNIN_LIMIT = 'sign-in attempts per client address and per email';
const ANON_LIMIT = 'unauthenticated endpoints (device login, SCIM) per client address';
const FAILURE_LIMIT = 'failed authentications (401) per client address before 429; successes never count';
const DB_TIMEOUTS =
  "PostgreSQL: give up connecting, or waiting for a query's answer on a silent connection (503); migrations have no query timeout; `0` waits for ever";
/** PRODUCT.md's default: the delays after each failed attempt, about a day in all; then the endpoint is disabled. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
const SET_BY_START = 'set by `npm start` (scripts/start.mjs) for the server it starts; never set by hand';

/**
 * Every environment variable the app reads, once: its kind (type, range, default) and its line in the README's
 * configuration table. lib/settings/settings.ts parses them at start; a bad value stops it, naming the variable.
 */
export const DECLARATIONS = {
  PORT: count(1, 3000, LISTEN, 65_535),
  HOST: text('127.0.0.1', LISTEN),
  DATA_DIR: text('./data', 'the embedded database (PGlite) and the generated secret; one process at a time'),
  DATABASE_URL: url(
    ['postgres', 'postgresql'],
    'a PostgreSQL URL; when set, PGlite is not used and several instances may share it',
    true,
  ),
  DATABASE_POOL_SIZE: count(1, 10, 'connections per instance (PostgreSQL)'),
  DATABASE_COUNTER_POOL_SIZE: count(
    1,
    4,
    'further connections per instance for the rate-limit counters, whose commits do not wait for the disk (PostgreSQL; see [what holds across instances](docs/architecture.md#what-holds-across-instances))',
  ),
  DATABASE_SEARCH_POOL_SIZE: count(
    1,
    2,
    "further connections per instance for the lists' searches, whose sessions keep one plan per statement (`plan_cache_mode=force_generic_plan`; PostgreSQL connected directly, none behind a transaction pooler; see [big organizations](docs/big-organizations.md))",
  ),
  DATABASE_DIRECT_URL: url(
    ['postgres', 'postgresql'],
    'PostgreSQL itself, for what needs one server session throughout: migrations and their lock at start, `db:backup`, `db:restore`; set it when `DATABASE_URL` names a transaction pooler ([PgBouncer](docs/deploy.md#pgbouncer-redis-and-capacity))',
    true,
  ),
  DATABASE_POOLER: oneOf(
    ['transaction', 'none'],
    undefined,
    '`transaction`: `DATABASE_URL` is a transaction pooler (PgBouncer `pool_mode=transaction`), so statements go unnamed and anything that keeps session state is refused; `none`: hot statements are named, parsed once per connection',
  ),
  DATABASE_CONNECT_TIMEOUT_MS: duration(0, 2000, DB_TIMEOUTS),
  DATABASE_QUERY_TIMEOUT_MS: duration(0, 4000, DB_TIMEOUTS),
  DATABASE_BREAKER_MS: duration(
    0,
    2000,
    'PostgreSQL: after a failure meaning "unavailable", answer 503 without trying for this long',
  ),
  RATE_LIMIT_REDIS_URL: url(
    ['redis', 'rediss'],
    "a Redis or Valkey URL (`redis://host:6379`) every instance shares: the rate-limit counters live there instead of PostgreSQL's `rate_limits` table",
    true,
  ),
  RATE_LIMIT_NAMESPACE: text(
    '',
    'a prefix of every rate-limit key, so deployments (or test servers) sharing one database or Redis keep their own counters',
  ),
  RATE_LIMIT_STORE: oneOf(
    ['memory'],
    undefined,
    "`memory`: each process counts alone, in memory (the benchmark's baseline; not for several instances)",
  ),
  SEED_DEMO: flag(
    undefined,
    'create the demo data on start when the database has none (`npm run seed` does it on any database)',
  ),
  NEXTAUTH_SECRET: text(
    undefined,
    'signs and encrypts session cookies; **required with `DATABASE_URL`**, the same on every instance',
    true,
  ),
  ENCRYPTION_KEY: text(
    undefined,
    '32 bytes, base64 or hex: seals TOTP and webhook signing secrets; **required with `DATABASE_URL`** (also for `db:backup` and `db:restore`), the same on every instance',
    true,
  ),
  NEXTAUTH_URL: url(['http', 'https'], ORIGIN),
  APP_URL: url(['http', 'https'], ORIGIN),
  ALLOWED_ORIGINS: list('more origins, comma-separated, allowed to make cookie-authenticated writes'),
  OIDC_ISSUER: url(['http', 'https'], OIDC),
  OIDC_CLIENT_ID: text(undefined, OIDC),
  OIDC_CLIENT_SECRET: text(undefined, OIDC, true),
  OIDC_NAME: text('Single sign-on', OIDC),
  RATE_LIMIT_REQUESTS: count(1, 1200, API_LIMIT),
  RATE_LIMIT_WINDOW_SECONDS: count(1, 60, API_LIMIT),
  SIGNIN_RATE_LIMIT: count(1, 10, SIGNIN_LIMIT),
  SIGNIN_RATE_LIMIT_WINDOW_SECONDS: count(1, 60, SIGNIN_LIMIT),
  ANON_RATE_LIMIT: count(1, 60, ANON_LIMIT),
  ANON_RATE_LIMIT_WINDOW_SECONDS: count(1, 60, ANON_LIMIT),
  AUTH_FAILURE_RATE_LIMIT: count(1, 100, FAILURE_LIMIT),
  AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: count(1, 60, FAILURE_LIMIT),
  TRUST_PROXY: proxyCount(
    "only behind proxies that append to `X-Forwarded-For` and set `-Host`/`-Proto`: `true` (or `1`) for one proxy, `N` for N in a chain. The client address (per-address limits, keys' `allowedIps`) is then the Nth `X-Forwarded-For` entry from the right, the one the outermost trusted proxy appended, never an entry the client wrote; the forwarded host counts as the app's own origin. Off, both come from the connection",
  ),
  SHUTDOWN_GRACE_MS: duration(
    0,
    undefined,
    'after `SIGTERM`, keep serving this long with `/v1/health` at 503 and `Connection: close` on every answer, so a load balancer moves off before the listener closes; a second signal skips it ([deploy](docs/deploy.md#restarts-and-signals))',
  ),
  BACKGROUND_START_DELAY_MS: duration(
    0,
    5000,
    "background jobs (housekeeping, deliveries, email) start this long after the database opens, so their first connections do not race Next's loading of its routes",
  ),
  AUTH_CACHE_TTL_MS: duration(
    0,
    1000,
    "the authentication caches' lifetime (`0` switches them off); a key in use is reloaded in the background past half of it",
  ),
  SLOW_REQUEST_MS: duration(
    0,
    1000,
    'a request this slow or slower logs a `slow request` line saying what overlapped it (GC, a held event loop, background passes, statements holding the embedded database) ([run](docs/run.md#logs))',
  ),
  LOG_LEVEL: oneOf(
    ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
    'info',
    'the least severe log line written (`debug`, `info`, `warn`, `error`)',
  ),
  LOG_FORMAT: oneOf(['json', 'pretty'], undefined, 'how log lines are written: `json` (one object a line) or `pretty`'),
  METRICS_TOKEN: text(undefined, 'the bearer token a Prometheus scraper sends to `GET /metrics`', true),
  AUDIT_RETENTION_DAYS: count(
    1,
    400,
    'audit events older than this are pruned by housekeeping, behind a checkpoint that keeps the rest verifiable',
  ),
  SECRET_SCANNING_PUBLIC_KEYS: text(
    undefined,
    'JSON `[{key_identifier, key}]` (PEM, ECDSA P-256): the partners whose signed leak reports are trusted',
  ),
  LAST_USED_FLUSH_MS: duration(1, 5000, 'how often `lastUsedAt` and the per-day usage counts are written'),
  API_KEY_USAGE_COUNTING: flag(true, '`0` switches the per-key usage counting off (the benchmark compares both)'),
  SUDO_WINDOW_SECONDS: count(
    0,
    900,
    'how long a sign-in or a re-authentication lets a console session do guarded things (sudo); the same on every instance',
  ),
  ALERTS_MAX_PER_PROJECT: count(
    1,
    10_000,
    'unresolved alerts a project keeps; an alert past it is refused and named in the 400 ([alertmanager](docs/alertmanager.md))',
  ),
  ALERT_RETENTION_SECONDS: count(
    1,
    86_400,
    'how long a resolved alert stays listed (`state=resolved`) before housekeeping deletes it',
  ),
  SILENCE_RETENTION_SECONDS: count(
    0,
    432_000,
    "how long an expired silence stays in the Alertmanager API's list after its end (Alertmanager's own 120 h); `/v1` lists expired silences for ever",
  ),
  QUEUES_MAX_PER_PROJECT: count(
    1,
    100,
    'queues a project holds; another is 409 `quota_exceeded` ([api](docs/api.md#queues-and-publishing))',
  ),
  QUEUE_MAX_BACKLOG: count(
    1,
    1_000_000,
    'undelivered messages a subscription holds; a publish past it is refused whole, 409 `quota_exceeded`',
  ),
  QUEUE_POLL_MS: duration(
    1,
    250,
    'how often an idle instance looks for ready messages (a publish on the same instance, or a delivery finishing, wakes it at once)',
  ),
  QUEUE_MAX_IN_FLIGHT: count(1, 200, "one process's open deliveries over every subscription and channel, at most"),
  QUEUE_EXPIRY_EVERY_MS: duration(1, 30_000, "how often the queues' retention runs"),
  WEBHOOK_RETRY_SCHEDULE: delays(
    DEFAULT_RETRY_SCHEDULE,
    'delays after each failed webhook attempt (`ms`, `s`, `m`, `h`, `d`); then the endpoint is disabled',
  ),
  WEBHOOK_ALLOW_LOOPBACK: flag(
    false,
    '`1` admits 127.0.0.0/8 and ::1 webhook and subscription targets, over `http://` too; nothing else private (local setups and tests only)',
  ),
  WEBHOOK_POLL_MS: duration(
    1,
    1000,
    'how often an idle instance looks for due webhook deliveries and emails (what it queues itself, and its retries as they fall due, wake it at once)',
  ),
  SMTP_URL: url(
    ['smtp', 'smtps'],
    '`smtp://` or `smtps://user:pass@host:port` turns email on; unset: notifications only in the console',
    true,
  ),
  MAIL_FROM: text('svc-console <no-reply@localhost>', 'the sender address of emails'),
  KEY_REMINDERS_EVERY_MS: duration(1, 60_000, 'how often housekeeping looks for keys to remind about'),
  SVC_VERSION: text('unknown', SET_BY_START),
  SVC_CUSTOM_SERVER: flag(false, SET_BY_START),
  SVC_PEER_NONCE: text(undefined, SET_BY_START, true),
  SVC_ADMIN_NONCE: text(undefined, SET_BY_START, true),
};
