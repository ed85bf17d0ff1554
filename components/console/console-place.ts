/** Where a resource lives in the console, and how a link there is named ("the queue", "Members"). */
export type ConsolePlace = { href: string; name: string };

/** A resource as an audit event's target names it, or as a page that just made it knows it. */
export type ResourceRef = { type: string; id: string; projectId?: string | null };

/**
 * The page (or the dialog) that shows a resource, or null where the console has none: one table for the audit
 * log's links and the toasts that follow a create.
 */
export function consolePlace(orgId: string, { type, id, projectId }: ResourceRef): ConsolePlace | null {
  const org = `/orgs/${orgId}`;
  const project = projectId ? `${org}/projects/${projectId}` : null;
  switch (type) {
    case 'queue':
      return project ? { href: `${project}/queues/${id}`, name: 'the queue' } : null;
    case 'subscription':
      return project ? { href: `${project}/subscriptions/${id}`, name: 'the subscription' } : null;
    case 'silence':
      return project ? { href: `${project}/silences?open=${id}`, name: 'the silence' } : null;
    case 'project':
      return { href: `${org}/projects/${id}/subscriptions`, name: 'the project' };
    case 'webhook':
      return { href: `${org}/webhooks/${id}`, name: 'the webhook' };
    case 'api_key':
      return { href: `${org}/api-keys`, name: 'API keys' };
    case 'bot':
      return { href: `${org}/bots`, name: 'Bots' };
    case 'user':
    case 'invitation':
    case 'scim_token':
      return { href: `${org}/members`, name: 'Members' };
    case 'organization':
      return id === orgId ? { href: `${org}/settings`, name: 'Settings' } : null;
    default:
      return null;
  }
}

/** A success toast's link to what was just made. */
export const openPlace = (place: ConsolePlace | null) => place && { label: `Open ${place.name}`, href: place.href };
