/** Every permission the service checks. */
export const PERMISSIONS = [
  'apiKeys.create',
  'apiKeys.list',
  'apiKeys.delete',
  'projects.get',
  'queues.subscriptions.get',
  'queues.subscriptions.list',
  'queues.subscriptions.update',
  'obs.silences.get',
  'obs.silences.list',
  'obs.silences.create',
  'obs.silences.update',
  'obs.alerts.list',
  'obs.alerts.create',
  'bots.list',
  'bots.create',
  'bots.delete',
  'bots.createApiKey',
  'members.list',
  'members.delete',
  'auditLog.read',
  'orgs.update',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const basicAccess: Permission[] = [
  'apiKeys.create',
  'bots.list',
  'projects.get',
  'queues.subscriptions.get',
  'queues.subscriptions.list',
  'obs.silences.get',
  'obs.silences.list',
  'obs.alerts.list',
];

/** The named policies of PRODUCT.md. Written to the `policies` table at start; evaluated from there. */
export const POLICIES: Record<string, Permission[]> = {
  BasicAccess: basicAccess,
  ApiKeyAdmin: ['apiKeys.list', 'apiKeys.delete'],
  BotAdmin: ['bots.create', 'bots.delete', 'bots.createApiKey'],
  MemberAdmin: ['members.list', 'members.delete'],
  QueuesEditor: ['queues.subscriptions.update'],
  SilencesEditor: ['obs.silences.create', 'obs.silences.update'],
  Auditor: ['auditLog.read'],
  // For the bot whose key a Prometheus sends alerts with: it can post alerts and nothing else.
  AlertSender: ['obs.alerts.create'],
  OrganizationAdmin: [...PERMISSIONS],
};
