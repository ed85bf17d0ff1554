/** Every permission the service checks. */
export const PERMISSIONS = [
  'apiKeys.create',
  'apiKeys.list',
  'apiKeys.delete',
  'projects.get',
  'projects.create',
  'projects.update',
  'queues.subscriptions.get',
  'queues.subscriptions.list',
  'queues.subscriptions.update',
  'queues.subscriptions.create',
  'queues.subscriptions.delete',
  'queues.subscriptions.redrive',
  'queues.queues.list',
  'queues.queues.get',
  'queues.queues.create',
  'queues.queues.update',
  'queues.queues.delete',
  'queues.messages.publish',
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
  'members.invite',
  'members.update',
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
  'queues.queues.list',
  'queues.queues.get',
  'obs.silences.get',
  'obs.silences.list',
  'obs.alerts.list',
];

/** The named policies of PRODUCT.md. Written to the `policies` table at start; evaluated from there. */
export const POLICIES: Record<string, Permission[]> = {
  BasicAccess: basicAccess,
  ApiKeyAdmin: ['apiKeys.list', 'apiKeys.delete'],
  BotAdmin: ['bots.create', 'bots.delete', 'bots.createApiKey'],
  MemberAdmin: ['members.list', 'members.delete', 'members.invite', 'members.update'],
  QueuesEditor: [
    'queues.subscriptions.update',
    'queues.queues.create',
    'queues.queues.update',
    'queues.queues.delete',
    'queues.subscriptions.create',
    'queues.subscriptions.delete',
    'queues.subscriptions.redrive',
    // So an editor can send a test message.
    'queues.messages.publish',
  ],
  SilencesEditor: ['obs.silences.create', 'obs.silences.update'],
  Auditor: ['auditLog.read'],
  // For the bot whose key a Prometheus sends alerts with: it can post alerts and nothing else.
  AlertSender: ['obs.alerts.create'],
  // For the bot an application publishes as: it can send messages to the project's queues and read them.
  QueuePublisher: ['queues.messages.publish', 'queues.queues.get'],
  OrganizationAdmin: [...PERMISSIONS],
};
