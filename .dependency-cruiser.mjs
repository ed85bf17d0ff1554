/*
 * The floors of the house (docs/architecture.md draws the same picture). An import points down a floor, never up:
 *
 *   app       app/ (pages, route files), components/, server/ (start-up, background jobs, the operation list,
 *             the demo seed), cli/, scripts/, bench/, e2e/, proxy.ts, instrumentation.ts
 *   features  lib/<feature>/: access, audit-log, sessions, api-keys, bots, members, onboarding, orgs,
 *             subscriptions, silences, alerts, alertmanager, notifications, oauth, scim, second-factor,
 *             secret-scanning, webhooks, backup, delivery (the one delivery engine), queues
 *   platform  lib/jobs < lib/observability < lib/http < lib/audit < lib/auth < lib/pipeline (the audit log holds
 *             the outbox's one insert, lib/audit/outbox.ts, which every writer of an event may import)
 *   ground    lib/settings (every environment variable, read once), lib/db, lib/crypto, lib/format, lib/console
 *             (the browser's list kit), lib/*.ts (ids, characters, the API client and its generated types)
 *
 * Within the features, alerting stands in three: lib/alertmanager (the door: the Alertmanager API's bodies and
 * handlers) over lib/alerts (receiving, storing, muting, listing, notifying) over lib/silences (which reaches alerts
 * only through the muting hook it declares).
 *
 * Where a lower floor needs what a feature knows, the feature answers a hook (lib/hooks.ts: lib/pipeline/hooks.ts,
 * lib/auth/sign-in-factors.ts) or exports its background jobs (a `jobs.ts` of lib/jobs/runner.ts's BackgroundJob),
 * and server/ wires them at start-up (server/hooks.ts, server/jobs.ts).
 * Browser code (components/, a page's _components/, lib/<x>/queries.ts, lib/<x>/keys.ts) reads only what a
 * browser may: never the database, a service, the pipeline or the server's wiring.
 *
 * `npm run deps` checks it (npm test runs it); `npm run deps:graph` writes the folder graph as Graphviz dot.
 */
const GROUND = '^lib/(db|crypto|format|console|settings)/[^/]+$|^lib/[^/]+\\.ts$';
// A folder of lib/ holds files only (no folder inside): the folder-cycle rule then sees each of lib/'s folders whole.
const PLATFORM = '^lib/(jobs|observability|http|audit|auth|pipeline)/[^/]+$';
const FEATURE =
  '^lib/(access|audit-log|sessions|api-keys|bots|members|onboarding|orgs|subscriptions|silences|alerts|alertmanager|notifications|oauth|scim|second-factor|secret-scanning|webhooks|backup|delivery|queues)/[^/]+$';
const APP = '^(app|components|server|cli|scripts|bench|e2e)/|^(proxy|instrumentation)\\.ts$';

// Within the platform, each folder may use the ones before it only.
const PLATFORM_ORDER = ['jobs', 'observability', 'http', 'audit', 'auth', 'pipeline'];
const platformOrder = PLATFORM_ORDER.slice(0, -1).map((folder, i) => ({
  name: `platform-order-${folder}`,
  comment: `lib/${folder} sits below lib/${PLATFORM_ORDER.slice(i + 1).join(', lib/')} in the platform floor`,
  severity: 'error',
  from: { path: `^lib/${folder}/` },
  to: { path: `^lib/(${PLATFORM_ORDER.slice(i + 1).join('|')})/` },
}));

// The pipeline's steps (a key's own refusals are in authenticate.ts; key-refusals.ts only words a permission's 403,
// which a door's `refusal` builds on). Unit tests stand outside (options.exclude).
const PIPELINE_STEPS =
  '^lib/pipeline/(authenticate|organization-refusals|needs|request-input|body-format|tenant)\\.ts$';

const BROWSER = '^components/|^app/.*/_components/|^lib/[^/]+/(queries|keys)\\.ts$|^lib/console/';
const SERVER =
  '^lib/(db|pipeline|jobs|observability|crypto|settings)/|^lib/[^/]+/[a-z-]*service\\.ts$|^lib/http/(request|rate-limit|idempotency|body|authenticate)\\.ts$|^lib/auth/(service|session|next-auth|epoch|cache|last-used|password)\\.ts$|^server/|^app/v1/|(^|/)node_modules/(server-only|pg|@electric-sql/pglite|drizzle-orm|pino|prom-client|nodemailer)/';

/** @type {import('dependency-cruiser').IConfiguration} */
const config = {
  forbidden: [
    {
      name: 'ground-imports-nothing-above',
      comment:
        'The ground floor (database, crypto, ids, time, the browser list kit) imports nothing of the project above it',
      severity: 'error',
      from: { path: GROUND },
      to: { path: `${PLATFORM}|${FEATURE}|${APP}` },
    },
    {
      name: 'platform-never-imports-a-feature',
      comment: 'The platform (pipeline, auth, access, audit, jobs) knows features only through the hooks they register',
      severity: 'error',
      from: { path: PLATFORM },
      to: { path: `${FEATURE}|${APP}` },
    },
    ...platformOrder,
    {
      name: 'silences-below-alerts',
      comment:
        'Silences sit below alerts: a silence write asks lib/alerts to relink and notify through the hook it registers (lib/silences/muting-service.ts), never by import',
      severity: 'error',
      from: { path: '^lib/silences/' },
      to: { path: '^lib/(alerts|alertmanager)/' },
    },
    {
      name: 'alerts-below-the-alertmanager-door',
      comment:
        'lib/alertmanager is the door (the Alertmanager API: its bodies, its handlers) above lib/alerts, which owns receiving, storing, muting, listing and notifying; the domain never imports its door',
      severity: 'error',
      from: { path: '^lib/alerts/' },
      to: { path: '^lib/alertmanager/' },
    },
    {
      name: 'features-never-import-the-app',
      comment: 'A feature never imports a page, a route file, a component or the server wiring',
      severity: 'error',
      from: { path: FEATURE },
      to: { path: APP },
    },
    {
      name: 'wiring-never-imports-a-route-file',
      comment:
        "The server's wiring, scripts and the CLI never import app/ (a page or a /v1 route file): a handler they run lives with its feature",
      severity: 'error',
      from: { path: '^(server|cli|scripts|bench)/' },
      to: { path: '^app/' },
    },
    {
      name: 'browser-never-imports-server',
      comment: 'Browser code (components, queries, query keys) never imports server code',
      severity: 'error',
      from: { path: BROWSER },
      to: { path: SERVER, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'pipeline-steps-stay-in-the-pipeline',
      comment:
        "The steps of the request pipeline (credential, key refusals, the organization's refusals, needs, reading and validating the input) are run by lib/pipeline/pipeline.ts alone: a feature takes a door (route, openRoute, pipeline) and never assembles its own order of checks",
      severity: 'error',
      from: { pathNot: '^lib/pipeline/' },
      to: { path: PIPELINE_STEPS, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No two folders import each other, however far round',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(lib|app|components|server|cli)/' },
      to: { circular: true },
    },
    {
      name: 'no-unplaced-lib-folder',
      comment:
        'Every folder under lib/ has its floor here (add a new one to the picture before using it) and holds files only, so no-folder-cycles sees each folder whole',
      severity: 'error',
      from: { path: '^lib/[^/]+/', pathNot: `${GROUND}|${PLATFORM}|${FEATURE}` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(\\.next|node_modules|data|test-results)/|\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
    },
    reporterOptions: {
      dot: { collapsePattern: '^(lib|app|server)/[^/]+|^[^/]+' },
    },
  },
};

export default config;
