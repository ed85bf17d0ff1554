import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { queryRows } from '../db/statement';
import type { ProjectSubscriptionHealth } from './health-schema';

type Row = {
  project_id: string;
  subscriptions: number | string;
  failing: number | string;
  dead_letters: number | string;
  dead_id: string | null;
  dead_slug: string | null;
};

/**
 * Each project's failing subscriptions and dead letters, in one statement over the organization's subscriptions and
 * their kept backlog counts (no message is read): the projects with a subscription, oldest project first.
 */
export async function subscriptionHealthByProject(organizationId: string): Promise<ProjectSubscriptionHealth[]> {
  const db = await getDb();
  const rows = await queryRows<Row>(
    db,
    sql`
    select s.project_id,
      count(*) as subscriptions,
      count(*) filter (where s.health = 'failing') as failing,
      coalesce(sum(b.dead), 0) as dead_letters,
      (array_agg(s.id::text order by b.dead desc, s.created_at, s.id) filter (where b.dead > 0))[1] as dead_id,
      (array_agg(s.slug order by b.dead desc, s.created_at, s.id) filter (where b.dead > 0))[1] as dead_slug
    from subscriptions s
    left join subscription_backlogs b on b.subscription_id = s.id
    where s.organization_id = ${organizationId}::uuid
    group by s.project_id
    order by min(s.created_at), s.project_id`,
  );
  return rows.map((r) => ({
    projectId: r.project_id,
    subscriptions: Number(r.subscriptions),
    failing: Number(r.failing),
    deadLetters: Number(r.dead_letters),
    deadLetterSubscription: r.dead_id && r.dead_slug ? { id: r.dead_id, slug: r.dead_slug } : null,
  }));
}
