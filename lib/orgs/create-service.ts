import { and, eq, ne, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import { ApiError, notFound } from '../errors';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import type { AuditChange, AuditSource } from '../db/audit-types';
import type { CreateProjectBody, Project, UpdateProjectBody } from './schema';
import { lockOrganization } from './service';

const toProject = (r: typeof t.projects.$inferSelect): Project => ({
  id: r.id,
  organizationId: r.organizationId,
  name: r.name,
  alertingEnabled: r.alertingEnabled,
});

/**
 * Names are unique in an organization, case aside. The organization row is locked (as member removal locks it) so two
 * creations or renames cannot both take one name: a check-then-insert under the lock, no race.
 */
async function assertNameFree(tx: Tx, organizationId: string, name: string, except?: string) {
  await lockOrganization(tx, organizationId);
  const [taken] = await tx
    .select({ id: t.projects.id })
    .from(t.projects)
    .where(
      and(
        eq(t.projects.organizationId, organizationId),
        sql`lower(${t.projects.name}) = lower(${name})`,
        except ? ne(t.projects.id, except) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw new ApiError('project_name_taken', `A project of this organization is already called ${name}.`);
}

export async function createProject(
  organizationId: string,
  input: CreateProjectBody,
  source: AuditSource,
): Promise<Project> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await assertNameFree(tx, organizationId, input.name);
    const [row] = await tx
      .insert(t.projects)
      .values({ organizationId, name: input.name, alertingEnabled: input.alertingEnabled ?? false })
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      projectId: row.id,
      action: 'project.created',
      target: { type: 'project', id: row.id, name: row.name },
      changes: [
        { field: 'name', from: null, to: row.name },
        { field: 'alertingEnabled', from: null, to: row.alertingEnabled },
      ],
    });
    return toProject(row);
  });
}

/** Renames a project or switches its alerting; `{}` or the same values change nothing and record nothing. */
export async function updateProject(
  organizationId: string,
  projectId: string,
  input: UpdateProjectBody,
  source: AuditSource,
): Promise<Project> {
  const db = await getDb();
  const project = await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(t.projects)
      .where(and(eq(t.projects.id, projectId), eq(t.projects.organizationId, organizationId)))
      .for('update');
    if (!before) throw notFound('No such project.');
    const changes: AuditChange[] = [];
    if (input.name !== undefined && input.name !== before.name) {
      await assertNameFree(tx, organizationId, input.name, projectId);
      changes.push({ field: 'name', from: before.name, to: input.name });
    }
    if (input.alertingEnabled !== undefined && input.alertingEnabled !== before.alertingEnabled)
      changes.push({ field: 'alertingEnabled', from: before.alertingEnabled, to: input.alertingEnabled });
    if (changes.length === 0) return toProject(before);
    const [row] = await tx
      .update(t.projects)
      .set({ name: input.name ?? before.name, alertingEnabled: input.alertingEnabled ?? before.alertingEnabled })
      .where(eq(t.projects.id, projectId))
      .returning();
    // Alerting off closes the project's silence routes: cached projects on every instance must see it.
    await bumpAuthEpoch(tx);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      projectId,
      action: 'project.updated',
      target: { type: 'project', id: row.id, name: row.name },
      changes,
    });
    return toProject(row);
  });
  invalidateAuthCaches();
  return project;
}
