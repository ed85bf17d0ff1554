import type { Db } from './client';
import * as t from './schema';

/** A new organization named `name` with one alerting project, Production: what a test or a bench works in alone. */
export async function insertScratchProject(db: Db, name: string) {
  const [org] = await db.insert(t.organizations).values({ name }).returning();
  const [project] = await db
    .insert(t.projects)
    .values({ organizationId: org.id, name: 'Production', alertingEnabled: true })
    .returning();
  return { organizationId: org.id, projectId: project.id };
}
