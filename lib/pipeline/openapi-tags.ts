/**
 * Every tag an operation may carry, with the description the documents declare (lint: operation-tag-defined).
 * A new tag goes here; lib/pipeline/openapi.test.ts fails for an operation whose tag is missing.
 */
export const OPENAPI_TAGS: Record<string, string> = {
  Service: 'Health and this document: no credential needed.',
  Organizations: "The caller's organizations and their projects.",
  'API keys': 'Credentials for code: create, list, roll, revoke, usage.',
  Members: "An organization's members: list, remove, leave.",
  Bots: 'Bots: principals for tools, each with its own API keys.',
  Queues: 'Queue subscriptions: read, change, pause and resume.',
  Silences: 'Alert silences of a project: create, read, change, expire, preview what one would mute.',
  Alerts: 'The alerts a project received through its Alertmanager API, each firing, silenced or resolved.',
  'Device login': "The OAuth device authorization grant's console side (`svc login`).",
  Sessions: "The caller's own console sessions.",
  'Audit log': 'Who changed what in an organization, with a verifiable hash chain.',
  'Secret scanning': 'Leak reports from secret scanning partners.',
  'Second factor': "The caller's second factors (TOTP, passkeys, recovery codes) and sudo mode.",
  Webhooks: "An organization's webhook endpoints, their signing secrets and their delivery log.",
  Notifications: "The caller's notifications in the console, and which kinds they want.",
  Alertmanager:
    "Alertmanager 0.25's v2 API per project (alerts and silences), for Prometheus, amtool, Grafana and karma.",
};
