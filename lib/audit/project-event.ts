import { actionNoun, type AuditAction } from '../audit-actions';
import type { AuditChange, AuditEventInput, AuditSource } from '../db/audit-types';

/** A project's resource as its events name it: the row's place and its slug. */
type ProjectResource = { organizationId: string; projectId: string; id: string; slug: string };

/**
 * An event about one resource of a project (a subscription, a silence): its target is the action's noun, named
 * by the resource's slug, so every event of one resource reads alike in the log.
 */
export function projectResourceEvent(
  source: AuditSource,
  action: AuditAction,
  row: ProjectResource,
  changes: AuditChange[],
): AuditEventInput {
  return {
    ...source,
    organizationId: row.organizationId,
    projectId: row.projectId,
    action,
    target: { type: actionNoun(action), id: row.id, name: row.slug },
    changes,
  };
}
